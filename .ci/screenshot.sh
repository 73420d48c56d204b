#!/usr/bin/env bash
# Renders a page in headless Chromium (installed from Debian's packages when missing) and checks
# the screenshot: the page drew something (not a blank page), with the failure's red in it.
#   .ci/screenshot.sh PAGE.html OUT.png
set -euo pipefail
page=$1 out=$2
if ! command -v chromium > /dev/null; then
  if [[ "$(id -u)" == 0 ]] && command -v apt-get > /dev/null; then
    (apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core) > /dev/null 2>&1 \
      || { echo "screenshot: chromium could not be installed" >&2; exit 1; }
  else
    echo "screenshot: chromium is not installed" >&2
    exit 1
  fi
fi
rm -f "$out"
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1100 \
  --screenshot="$out" "file://$(realpath "$page")" > /dev/null 2>&1 || true
[[ -s "$out" ]] || { echo "screenshot: chromium wrote no screenshot of $page" >&2; exit 1; }
python3 "$(dirname "$0")/png_ink.py" "$out"
