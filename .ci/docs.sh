#!/usr/bin/env bash
# Builds QueueTesting's DocC documentation with warnings as errors (an unresolved symbol link or
# a missing doc comment in a curated page fails), and checks that every Swift example in the
# catalog appears verbatim in Tests/QueueTestingTests/ArticleExamples.swift, where it compiles
# and runs as a test.
set -euo pipefail
cd "$(dirname "$0")/.."

catalog=Sources/QueueTesting/QueueTesting.docc
graphs=.build/docs-symbol-graphs
rm -rf "$graphs" .build/docs
mkdir -p "$graphs"
# QueueTesting re-exports its engine (QueueTestingEngine): extract its symbol graph with the
# engine's symbols in it, so the catalog documents and links the whole public surface as one module.
swift build --target QueueTesting >/dev/null
modules="$(swift build --show-bin-path)/Modules"
swift-symbolgraph-extract -module-name QueueTesting -I "$modules" -target "$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')" \
  -Xcc -fmodule-map-file="$(swift build --show-bin-path)/CQueueTestingRuntime.build/module.modulemap" \
  -output-dir "$graphs" -minimum-access-level public -experimental-allowed-reexported-modules=QueueTestingEngine
docc convert "$catalog" \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name QueueTesting \
  --fallback-bundle-identifier org.swift-queue-harness.QueueTesting \
  --output-path .build/docs \
  --warnings-as-errors
echo "docs: built .build/docs"

python3 - "$catalog" Tests/QueueTestingTests/ArticleExamples.swift <<'PY'
import pathlib, re, sys
catalog, examples = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]).read_text()
def normalize(text):
    return "\n".join(line.strip() for line in text.strip().splitlines() if line.strip())
compiled = normalize(examples)
blocks = missing = 0
for page in sorted(catalog.glob("*.md")):
    for block in re.findall(r"```swift\n(.*?)```", page.read_text(), re.S):
        blocks += 1
        if normalize(block) not in compiled:
            missing += 1
            print(f"{page}: this example is not in {sys.argv[2]}:\n{block}", file=sys.stderr)
if missing:
    sys.exit(f"docs: {missing} of {blocks} examples are not compiled")
print(f"docs: all {blocks} Swift examples compile (ArticleExamples.swift)")
PY
