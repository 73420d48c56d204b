#!/usr/bin/env python3
"""Every test suite runs under a time limit, so that a test that stops making progress fails,
named, instead of holding `swift test` until CI's own limit: Swift Testing's `.timeLimit` records
the issue, and QueueWorkloads' `.hangGuard` ends the process a minute later if the test is still
suspended where cancellation does not reach (a suite under `.controlledScheduling`, whose child
process has a watchdog of its own, needs no guard).

  python3 .ci/suite_time_limits.py          checks every @Suite under Tests/ and every type that
                                            holds @Test functions without one
  python3 .ci/suite_time_limits.py --add    adds the limit to every @Suite that has none

Swift Testing applies a suite's `.timeLimit` to each test in it and in its nested suites. The
limit is generous (tests here take seconds; the thread-sanitizer stage runs them many times
slower): it is a guard against hangs, not a speed target.
"""
import pathlib
import re
import sys

LIMIT = ".timeLimit(.minutes(5))"
GUARD = ".hangGuard"
root = pathlib.Path(__file__).resolve().parent.parent


def suite_attributes(text):
    """Yields (start, end) of each `@Suite` or `@Suite(...)` attribute."""
    for match in re.finditer(r"@Suite\b", text):
        start = match.start()
        index = match.end()
        if index < len(text) and text[index] == "(":
            depth = 0
            for position in range(index, len(text)):
                if text[position] == "(":
                    depth += 1
                elif text[position] == ")":
                    depth -= 1
                    if depth == 0:
                        yield start, position + 1
                        break
        else:
            yield start, index


def needs_guard(attribute):
    return ".controlledScheduling(" not in attribute and GUARD not in attribute


def completed(attribute):
    missing = [] if ".timeLimit(" in attribute else [LIMIT]
    if needs_guard(attribute):
        missing.append(GUARD)
    if attribute == "@Suite":
        return "@Suite(" + ", ".join(missing) + ")"
    inner = attribute[len("@Suite(") : -1]
    return "@Suite(" + ", ".join(([inner.rstrip()] if inner.strip() else []) + missing) + ")"


def add_import(text):
    """Adds `import QueueWorkloads` after the file's last top-level import."""
    lines = text.split("\n")
    last = max(i for i, line in enumerate(lines[:40]) if re.match(r"^\s*(@testable )?import ", line))
    indent = re.match(r"^\s*", lines[last]).group(0)
    lines.insert(last + 1, indent + "import QueueWorkloads")
    return "\n".join(lines)


def main():
    add = "--add" in sys.argv[1:]
    problems = []
    for path in sorted((root / "Tests").rglob("*.swift")):
        text = path.read_text()
        if "@Test" in text and "@Suite" not in text:
            problems.append(f"{path.relative_to(root)}: tests without a @Suite (and so without a time limit)")
        pieces = []
        last = 0
        for start, end in suite_attributes(text):
            attribute = text[start:end]
            if ".timeLimit(" in attribute and not needs_guard(attribute):
                continue
            line = text.count("\n", 0, start) + 1
            if add:
                pieces.append(text[last:start])
                pieces.append(completed(attribute))
                last = end
            else:
                problems.append(f"{path.relative_to(root)}:{line}: a @Suite without .timeLimit(…) and {GUARD}")
        if add and pieces:
            pieces.append(text[last:])
            text = "".join(pieces)
            if GUARD in text and "import QueueWorkloads" not in text:
                text = add_import(text)
            path.write_text(text)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"suite time limits: {len(problems)} problem(s); `python3 .ci/suite_time_limits.py --add` adds {LIMIT} and {GUARD}",
              file=sys.stderr)
        return 1
    print(f"suite time limits: every @Suite has {LIMIT} (and {GUARD} where no child process guards it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
