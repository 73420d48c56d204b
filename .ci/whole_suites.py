"""The whole-suite stage's two steps, as a user would take them on a package of their own.

    python3 .ci/whole_suites.py instrument PACKAGE_DIR HARNESS_DIR
        Makes every test target of the package depend on QueueTesting (appended to its
        Package.swift, as a user would add the dependency) and puts `.controlledScheduling()` on
        every `@Test`, with `import QueueTesting` in each file that has one (text edits, as sed
        would make them). Prints how many tests it marked.

    python3 .ci/whole_suites.py compare PLAIN_LOG TRAIT_LOG [RACES]
        Reads two `swift test` logs of the same suite, plain and under the trait. Prints both
        wall times and every test that passed plain and did not pass under the trait (a false
        alarm of the harness), and exits 1 if there is one. RACES, when given, is a file of the
        suite's tests that race on real threads (one name per line, `#` starts a comment): they
        may pass or fail plain, and the harness must find each race (fail each under the trait).
"""
import re
import sys
from pathlib import Path

MANIFEST_TAIL = """

// Added by swift-queue-harness's whole-suite stage: every test target may use the trait.
package.dependencies.append(.package(name: "swift-queue-harness", path: "{harness}"))
for target in package.targets where target.type == .test {{
  target.dependencies.append(.product(name: "QueueTesting", package: "swift-queue-harness"))
}}
"""

STRING = r'"(?:[^"\\\n]|\\.)*"'
TRAIT = ".controlledScheduling()"


def mark_tests(text):
    """Puts the trait on every `@Test` of a source file: after its display name if it has one
    (the name must stay the first argument), first otherwise. Returns (text, count)."""
    count = 0

    def named(match):
        nonlocal count
        count += 1
        return f"@Test({match.group(1)}, {TRAIT}{match.group(2)}"

    def unnamed(match):
        nonlocal count
        count += 1
        return f"@Test({TRAIT}, "

    def bare(match):
        nonlocal count
        count += 1
        return f"@Test({TRAIT})"

    text = re.sub(r"@Test\(\s*(" + STRING + r")\s*(,|\))", named, text)
    text = re.sub(r"@Test\((?!\s*\"|\.controlledScheduling\(\))(?=\s*\S)", unnamed, text)
    text = re.sub(r"@Test(?![\w(])", bare, text)
    return text, count


def instrument(package_dir, harness_dir):
    package = Path(package_dir)
    manifest = package / "Package.swift"
    text = manifest.read_text()
    tail = MANIFEST_TAIL.format(harness=Path(harness_dir).resolve())
    if 'name: "swift-queue-harness"' in text:
        # A suite that already depends on us (for our queues) gains only the product.
        tail = "\n".join(line for line in tail.splitlines() if "dependencies.append(.package" not in line)
    manifest.write_text(text + tail)
    total = 0
    for source in sorted((package / "Tests").rglob("*.swift")):
        text = source.read_text()
        if "@Test" not in text:
            continue
        text, count = mark_tests(text)
        if count:
            text = "import QueueTesting\n" + text
            source.write_text(text)
            total += count
    print(f"whole-suites: put {TRAIT} on {total} @Test(s) in {package.name}")


RESULT = re.compile(r"^([✔✘]) Test (.+?) (passed|failed)(?: after| with)")
RUN = re.compile(r"Test run with (\d+) tests?.*? (passed|failed) after ([0-9.]+) seconds")


def results(log):
    """The test names of a Swift Testing log, each with the outcomes of the tests of that name (a
    log does not name a test's suite, and two suites may each have a test of one name), and the
    run's line."""
    outcome = {}
    run = None
    for line in Path(log).read_text(errors="replace").splitlines():
        match = RESULT.match(line)
        if match and not match.group(2).startswith("run with"):
            outcome.setdefault(match.group(2), []).append(match.group(3) == "passed")
        found = RUN.search(line)
        if found:
            run = found
    return outcome, run


def race_names(path):
    """The tests a RACES file names: one per line, without what follows a `#`."""
    names = set()
    for line in Path(path).read_text().splitlines():
        name = line.split("#", 1)[0].strip()
        if name:
            names.add(name)
    return names


def compare(plain_log, trait_log, races_file=None):
    races = race_names(races_file) if races_file else set()
    plain, plain_run = results(plain_log)
    trait, trait_run = results(trait_log)
    if plain_run is None or trait_run is None:
        print(f"whole-suites: no Swift Testing summary in {plain_log if plain_run is None else trait_log}")
        return 1
    # A name counts as passed only when every test of that name passed, and under the trait only
    # when as many of that name passed as plain.
    passed_plain = sorted(name for name, runs in plain.items() if all(runs) and name not in races)
    false_alarms = [name for name in passed_plain if trait.get(name, []).count(True) < len(plain[name])]
    missed_races = sorted(name for name in races if all(trait.get(name, [True])))
    print(f"whole-suites: {plain_run.group(1)} tests; plain {plain_run.group(3)} s, "
          f"under the trait {trait_run.group(3)} s; "
          f"{sum(len(plain[name]) for name in passed_plain)} passed plain, "
          f"{len(false_alarms)} of them failed under the trait")
    for name in false_alarms:
        state = "did not report" if name not in trait else "failed"
        print(f"  false alarm: {name} passed plain and {state} under the trait")
    for name in sorted(races):
        print(f"  race on real threads: {name} {'was not found' if name in missed_races else 'failed'} under the trait")
    return 1 if false_alarms or missed_races else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "instrument":
        instrument(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "compare":
        sys.exit(compare(*sys.argv[2:]))
    else:
        print(__doc__)
        sys.exit(2)
