#!/usr/bin/env python3
"""Every test suite runs under a time limit, so that a test that stops making progress fails,
named, instead of holding `swift test` until CI's own limit.

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


def with_limit(attribute):
    if attribute == "@Suite":
        return "@Suite(" + LIMIT + ")"
    inner = attribute[len("@Suite(") : -1]
    return "@Suite(" + inner.rstrip() + ", " + LIMIT + ")" if inner.strip() else "@Suite(" + LIMIT + ")"


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
            if ".timeLimit(" in attribute:
                continue
            line = text.count("\n", 0, start) + 1
            if add:
                pieces.append(text[last:start])
                pieces.append(with_limit(attribute))
                last = end
            else:
                problems.append(f"{path.relative_to(root)}:{line}: a @Suite without .timeLimit(…)")
        if add and pieces:
            pieces.append(text[last:])
            path.write_text("".join(pieces))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"suite time limits: {len(problems)} problem(s); `python3 .ci/suite_time_limits.py --add` adds {LIMIT}",
              file=sys.stderr)
        return 1
    print("suite time limits: every @Suite has one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
