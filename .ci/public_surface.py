"""The public surface of the products, as a reviewed list: every `public` declaration of the
modules a user's package can import (AsyncQueue, AsyncOperations, and QueueTesting with the engine
it re-exports), one line each, outside the `Strategies` SPI. `.ci/public-surface.txt` holds the
list as last reviewed; a declaration made public since (or one taken away) fails the check until
the list is updated on purpose.

    python3 .ci/public_surface.py            (check; the public-surface stage runs it)
    python3 .ci/public_surface.py --update   (write the list after reviewing the difference)
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / ".ci" / "public-surface.txt"
MODULES = ["AsyncQueue", "AsyncOperations", "QueueTestingEngine", "QueueTesting"]
PUBLIC = re.compile(r"^\s*((?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*)public\s+(.*)$")


def surface():
    lines = []
    for module in MODULES:
        for path in sorted((ROOT / "Sources" / module).rglob("*.swift")):
            for text in path.read_text().split("\n"):
                match = PUBLIC.match(text)
                if not match or "@_spi(" in match.group(1):
                    continue
                declaration = re.sub(r"\s*\{.*$", "", match.group(2)).strip()
                lines.append(f"{module}: {declaration}")
    return sorted(lines)


def main(arguments):
    current = surface()
    if arguments == ["--update"]:
        LIST.write_text("\n".join(current) + "\n")
        print(f"public surface: {len(current)} declarations written to {LIST.relative_to(ROOT)}")
        return
    reviewed = LIST.read_text().split("\n")[:-1] if LIST.exists() else []
    added = sorted(set(current) - set(reviewed))
    removed = sorted(set(reviewed) - set(current))
    for line in added:
        print(f"public surface: new, not reviewed: {line}")
    for line in removed:
        print(f"public surface: gone since the review: {line}")
    if added or removed:
        sys.exit("public surface: review the difference, then run python3 .ci/public_surface.py --update")
    print(f"public surface: {len(current)} declarations, as reviewed")


if __name__ == "__main__":
    main(sys.argv[1:])
