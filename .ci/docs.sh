#!/usr/bin/env bash
# The documentation cannot drift from the code:
# - QueueTesting's and AsyncQueue's DocC catalogs build with warnings as errors (an unresolved symbol
#   link, or a public symbol of a curated page without a doc comment, fails);
# - every Swift example of the README, of both catalogs and of the documentation comments appears
#   verbatim in .ci/doc-examples, a package that depends on this one by path as a user's would,
#   where it compiles through the public products and runs as a test; the README's manifest
#   example names real products;
# - that package's tests pass, except the three that fail by design (the README's first test, its
#   linearizability check of a racy counter and the lost update of "Reading a failure"), whose
#   output must read as the documents show it.
set -euo pipefail
cd "$(dirname "$0")/.."

triple="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
swift build --target QueueTesting > /dev/null
swift build --target AsyncQueue > /dev/null
modules="$(swift build --show-bin-path)/Modules"
rm -rf .build/docs-symbol-graphs .build/docs
# Builds one catalog; QueueTesting's symbol graph carries the engine it re-exports.
build_catalog() { # module, catalog, extra symbolgraph-extract flags...
  local module=$1 catalog=$2 graphs=".build/docs-symbol-graphs/$1"
  shift 2
  mkdir -p "$graphs"
  swift-symbolgraph-extract -module-name "$module" -I "$modules" -target "$triple" \
    -Xcc -fmodule-map-file="$(swift build --show-bin-path)/CQueueTestingRuntime.build/module.modulemap" \
    -output-dir "$graphs" -minimum-access-level public "$@"
  mkdir -p ".build/docs/$module"
  docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.swift-queue-harness.$module" --output-path ".build/docs/$module" \
    --warnings-as-errors
  echo "docs: built .build/docs/$module"
}
build_catalog QueueTesting Sources/QueueTesting/QueueTesting.docc \
  -experimental-allowed-reexported-modules=QueueTestingEngine
build_catalog AsyncQueue Sources/AsyncQueue/AsyncQueue.docc

python3 - <<'PY'
import pathlib, re, sys
root = pathlib.Path(".")
examples = root / ".ci/doc-examples"
def normalize(text):
    return "\n".join(line.strip() for line in text.strip().splitlines() if line.strip())
files = sorted((examples / "Tests").rglob("*.swift"))
compiled = [normalize(p.read_text()) for p in files]
def imports(text):
    return {line.strip() for line in text.splitlines() if line.strip().startswith("import ")}
products = set(re.findall(r'\.(?:library|executable)\(name: "([^"]+)"', (root / "Package.swift").read_text()))
blocks = []
pages = [root / "README.md", *sorted(root.glob("Sources/*/*.docc/*.md"))]
for page in pages:
    for block in re.findall(r"```swift\n(.*?)```", page.read_text(), re.S):
        blocks.append((str(page), block))
for source in sorted(root.glob("Sources/**/*.swift")):
    lines = source.read_text().split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() == "/// ```swift":
            end = index + 1
            while lines[end].strip() != "/// ```":
                end += 1
            block = "\n".join(re.sub(r"^\s*/// ?", "", line) for line in lines[index + 1:end])
            blocks.append((f"{source}:{index + 1}", block))
            index = end
        index += 1
missing = 0
shown_imports = {}
for where, block in blocks:
    if block.lstrip().startswith("dependencies: ["):
        # A manifest example: it cannot resolve its URL offline, so check the names it uses.
        named = set(re.findall(r'\.product\(name: "([^"]+)", package: "swift-queue-harness"\)', block))
        unknown = named - products
        if not named or unknown:
            missing += 1
            print(f"{where}: the manifest example names {sorted(unknown) or 'no product'}; products: {sorted(products)}",
                  file=sys.stderr)
        continue
    homes = [path for path, text in zip(files, compiled) if normalize(block) in text]
    if not homes:
        missing += 1
        print(f"{where}: this example is not in .ci/doc-examples:\n{block}", file=sys.stderr)
        continue
    # An example compiles with the imports it shows: a block that shows imports compiles in a file
    # that imports nothing else; in an article, which shows its imports once, every example
    # compiles in a file that imports nothing the article has not shown by then.
    shown = imports(block)
    if where.startswith("Sources/") and where.endswith(".md"):
        shown |= shown_imports.get(where, set())
        shown_imports[where] = shown
    if shown and not any(imports(path.read_text()) <= shown for path in homes):
        missing += 1
        extra = sorted(imports(homes[0].read_text()) - shown)
        print(f"{where}: this example compiles only with imports its page does not show ({', '.join(extra)}):\n{block}",
              file=sys.stderr)
if missing:
    sys.exit(f"docs: {missing} of {len(blocks)} examples are not compiled")
print(f"docs: all {len(blocks)} Swift examples (README, DocC catalogs, doc comments) are compiled in .ci/doc-examples")
PY

log=.build/doc-examples.log
attachments="$PWD/.build/doc-examples-attachments"
rm -rf "$attachments"
mkdir -p "$attachments"
status=0
(cd .ci/doc-examples && swift test --attachments-path "$attachments") > "$log" 2>&1 || status=$?
fail() { cat "$log"; echo "docs: $1" >&2; exit 1; }
test "$status" -ne 0 || fail "the README's failing tests passed"
failed="$(grep -Eo '✘ Test [^ ]+ failed' "$log" | sort -u | tr '\n' ' ')"
[[ "$failed" == "✘ Test counterIsLinearizable() failed ✘ Test incrementsArriveInOrder() failed ✘ Test taskGroupLosesNoUpdate() failed " ]] \
  || fail "expected only counterIsLinearizable(), incrementsArriveInOrder() and taskGroupLosesNoUpdate() to fail, got: $failed"
grep -q "Executed [0-9]* tests, with 0 failures" "$log" || fail "an XCTest example failed"
# The documents' output of those tests, line by line: each fragment between '…' appears, in order,
# on one line of the real output.
python3 - "$log" <<'PY'
import re, sys
output = open(sys.argv[1]).read().splitlines()
shown = []
for page, test in [("README.md", "incrementsArriveInOrder"), ("README.md", "counterIsLinearizable"),
                   ("Sources/QueueTesting/QueueTesting.docc/ReadingAFailure.md", "taskGroupLosesNoUpdate")]:
    block = re.search(r"```text\n(✘ Test " + test + r"\(\).*?)```", open(page).read(), re.S)
    if not block:
        sys.exit(f"docs: {page} shows no output of {test}()")
    shown += block.group(1).strip().splitlines()
def matches(line, wanted):
    position = 0
    for fragment in wanted.split("…"):
        found = line.find(fragment, position)
        if found < 0:
            return False
        position = found + len(fragment)
    return True
for wanted in shown:
    if not any(matches(line, wanted) for line in output):
        sys.exit(f"docs: a document shows a line the test does not print:\n{wanted}")
print(f"docs: the documents' failure output matches the real one ({len(shown)} lines)")
PY
echo "docs: every example passes, and the three failing by design fail as the documents show"

# A failure explains itself, seen from a user's package: the lost update across two task-group
# children is reduced to the one preemption it needs, the reduced schedule's replay fails again,
# and the test's picture has a lane per task of the run, the preemption and the failure marked.
test=taskGroupLosesNoUpdate
grep -A8 "✘ Test $test() recorded an issue at ReadingAFailureExample.swift:23" "$log" \
  | grep -Eq "Preemptions: 1 preemption \(step [0-9]+: task [0-9]+ → task [0-9]+\)" \
  || fail "$test was not reduced to 1 preemption"
# shellcheck source=.ci/replay.sh
source .ci/replay.sh
replay="$(replay_line "$log" "$test" "[^']*")"
[[ -n "$replay" ]] || fail "$test printed no replay line"
replay_fails_alone .ci/doc-examples "$replay" "$PWD/.build/doc-examples-replay.log" || fail "the replay of $test"
python3 - "$attachments/$test-schedule-"*.html <<'PY' || fail "$test's picture is not what it should be"
import re, sys
paths = sys.argv[1:]
if len(paths) != 1:
    sys.exit(f"expected one picture of the test, found {paths}")
html = open(paths[0]).read()
lanes = re.findall(r'<g data-task="([^"]+)"', html)
ran = set(re.findall(r"<title>step \d+, ([^:]+): ran on", html))
if not lanes or len(lanes) != len(set(lanes)) or set(lanes) != ran:
    sys.exit(f"a lane per task that ran: lanes {lanes}, tasks that ran {sorted(ran)}")
if 'data-actor="actor SharedAccount"' not in html:
    sys.exit("no lane for the actor the children share")
order = re.search(r"Tasks' turns on SharedAccount, in the order they ran: ([0-9 ·]+)<", html)
if not order or order.group(1).split(" · ")[:4] not in (["3", "2", "3", "2"], ["2", "3", "2", "3"]):
    sys.exit(f"the turns on the actor do not show both reads before both writes: {order and order.group(1)}")
if html.count('<g class="preemption">') != 1 or '<g class="failure">' not in html:
    sys.exit("the preemption or the failure is not marked")
if "<script" in html or "http" in html.replace("http://www.w3.org/2000/svg", ""):
    sys.exit("the page loads or runs something")
print(f"docs: {len(lanes)} lanes ({', '.join(lanes)}), the actor's turns {order.group(1)}, one preemption and the failure marked")
PY
echo "docs: $test fails reduced to 1 preemption, its replay fails again alone; replay: $replay"

# The picture of the README's first failing test reads on its own: a lane for the counter actor
# with every increment on it, each marked with its task; the failing expectation stated; the 100
# tasks folded so that the page is not a hundred lanes. Checked in the page's SVG, and in a real
# browser: a headless Chromium screenshot must show the chart and the failure's red.
page="$attachments/incrementsArriveInOrder-schedule-1.html"
python3 .ci/first_test_picture.py "$page" || fail "the first test's picture is not what it should be"
bash .ci/screenshot.sh "$page" .build/first-test-picture.png || fail "the first test's picture did not render in a browser"
