"""The house's limits on the size of source files and functions in Sources/: no file over 400
lines, no function (or initializer, or closure-valued static) over 80 lines. A function's length
runs from its declaration to its closing brace. Prints every breach and exits 1 if there is one.

    python3 .ci/source_sizes.py [--list N]   (--list: the N longest functions, breach or not)
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE_LIMIT = 400
FUNCTION_LIMIT = 80
DECLARATION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|static|class|mutating|"
    r"nonisolated|override|final|consuming|borrowing|required|convenience)\s+)*(?:func\s|init[(<?]|deinit\b)")
C_DEFINITION = re.compile(r"^(?:static |__attribute__\S+ )*[A-Za-z_][\w \*]*\([^;]*\)\s*\{\s*$")


def function_lengths(path):
    lines = path.read_text().split("\n")
    pattern = C_DEFINITION if path.suffix == ".c" else DECLARATION
    for number, line in enumerate(lines):
        if not pattern.match(line) or line.strip().startswith("//"):
            continue
        depth, opened = 0, False
        for end in range(number, len(lines)):
            text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', lines[end].split("//")[0])
            depth += text.count("{") - text.count("}")
            opened = opened or "{" in text
            if opened and depth <= 0:
                break
            if not opened and end > number and (text.strip() == "" or pattern.match(lines[end])):
                break  # a requirement without a body
        if opened:
            name = re.search(r"(func\s+[^(<\s]+|init|deinit|\w+\s*\()", line)
            yield end - number + 1, number + 1, name.group(1) if name else line.strip()


def main(arguments):
    files = [p for p in sorted((ROOT / "Sources").rglob("*")) if p.suffix in (".swift", ".c", ".h")]
    functions = [(length, path, line, name) for path in files for length, line, name in function_lengths(path)]
    if arguments[:1] == ["--list"]:
        for length, path, line, name in sorted(functions, reverse=True)[: int(arguments[1])]:
            print(f"{length:4} {path.relative_to(ROOT)}:{line} {name}")
        return
    breaches = []
    for path in files:
        count = len(path.read_text().rstrip("\n").split("\n"))
        if count > FILE_LIMIT:
            breaches.append(f"{path.relative_to(ROOT)}: {count} lines (at most {FILE_LIMIT})")
    for length, path, line, name in functions:
        if length > FUNCTION_LIMIT:
            breaches.append(f"{path.relative_to(ROOT)}:{line}: {name} is {length} lines (at most {FUNCTION_LIMIT})")
    for breach in breaches:
        print(f"source sizes: {breach}")
    if breaches:
        sys.exit(f"source sizes: {len(breaches)} breach(es)")
    print(f"source sizes: {len(files)} files within {FILE_LIMIT} lines, {len(functions)} functions within {FUNCTION_LIMIT}")


if __name__ == "__main__":
    main(sys.argv[1:])
