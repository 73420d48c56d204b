#!/usr/bin/env bash
# queue-fuzz stands alone: built with a static Swift standard library it links no Testing, XCTest,
# Foundation or Swift runtime library (ldd), and runs the corpus from a folder of its own with no
# toolchain on its paths.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build-static
log=.build-static/static-build.log

swift build -c release --static-swift-stdlib --product queue-fuzz --scratch-path .build-static > "$log" 2>&1 \
  || { cat "$log"; exit 1; }
binary=.build-static/release/queue-fuzz
if ldd "$binary" | grep -Ei 'swift|Testing|XCTest|Foundation|icu'; then
  echo "static-queue-fuzz: the binary still links the libraries above" >&2
  exit 1
fi
place="$(mktemp -d)"
trap 'rm -rf "$place"' EXIT
cp "$binary" "$place/queue-fuzz"
cp -r Scenarios "$place/Scenarios"
(cd "$place" && env -i PATH=/usr/bin:/bin HOME="$place" ./queue-fuzz run Scenarios/ | tail -1)
echo "static-queue-fuzz: $(du -m "$binary" | cut -f1) MB, links only: $(ldd "$binary" | awk '{print $1}' | tr '\n' ' ')"
