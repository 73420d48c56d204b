#!/usr/bin/env bash
# macOS CI: selects the newest installed Xcode whose Swift is 6.3 (Xcode 26.4 and later), and
# fails, naming what is installed, when there is none. The package needs Swift 6.3's executor
# hooks, so an older Xcode would fail later with less helpful errors.
set -euo pipefail
for xcode in $(ls -d /Applications/Xcode*.app 2> /dev/null | sort -rV); do
  version="$(DEVELOPER_DIR="$xcode/Contents/Developer" xcrun swift --version 2> /dev/null || true)"
  if grep -q "Swift version 6\.3" <<< "$version"; then
    sudo xcode-select -s "$xcode/Contents/Developer"
    echo "Selected $xcode: $(head -1 <<< "$version")"
    exit 0
  fi
done
echo "No Xcode with Swift 6.3 installed; found: $(ls -d /Applications/Xcode*.app 2> /dev/null | tr '\n' ' ')" >&2
exit 1
