#!/usr/bin/env python3
"""Apple availability check, run on Linux.

The package's floor is macOS 15 / iOS 18 / tvOS 18 / watchOS 11 / visionOS 2, but it uses
declarations that Apple platforms ship later (the executor-factory SPI in 26.4, `Task.immediate` in
26). On Linux the compiler ignores Apple availability, so nothing here would notice a use that fails
to compile for a Mac. This script does what the compiler would do there:

1. The availability of every SDK declaration comes from this toolchain's own modules: symbol graphs
   extracted from them (SPI included) carry the Apple `@available` attributes of the interfaces,
   members inheriting their type's.
2. Every target of the package is type-checked again with `-dump-ast -dump-ast-format json`, which
   gives each reference the compiler resolved (by USR), each explicit conformance and type
   annotation, each `@available` attribute and each `#available`/`#unavailable` condition.
3. For each platform, the context of a use is the package floor raised by the enclosing
   declarations' `@available`, by `if #available` (its branch), `guard #available` (the rest of the
   scope) and `#unavailable` (its else). A use whose declaration needs more is reported with its
   file, line and column. The package's own declarations are checked the same way, so a floor-level
   function that calls an annotated type is caught too.

Code in an inactive `#if` branch (`#if canImport(Darwin)`) is not seen; the Darwin-only branches are
listed by `--list-inactive` so a reviewer knows what this check cannot cover.

Usage: availability.py [--build-dir DIR] [--modules A,B] [--plant MODULE=FILE]... [--list-inactive]
(--modules limits the check to some targets, for a quicker look while annotating.)
Exit status 0 when every use is covered, 1 when a use is not, 2 when the check could not run.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

PLATFORMS = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
# Package.swift's platforms; the script reads them back from the manifest and fails if they differ.
FLOOR = {"macOS": (15, 0), "iOS": (18, 0), "tvOS": (18, 0), "watchOS": (11, 0), "visionOS": (2, 0)}

# Runtime entry points the package binds by `@_silgen_name`. The symbol must be exported by this
# toolchain's runtime, and the binding must sit in a context at least as new as the Apple runtimes
# that export it. swift_task_getJobTaskId is declared by the standard library itself as
# `@available(SwiftStdlib 5.9, *) @_silgen_name("swift_task_getJobTaskId")` (the id in
# `UnownedJob.description`, whose interface availability is checked below to agree).
RUNTIME_SYMBOLS = {
    "swift_task_getJobTaskId": {
        "library": "libswift_Concurrency.so",
        "public_witness": "s:ScJ11descriptionSSvp",
    },
}

SDK_MODULES = [
    "Swift", "_Concurrency", "Synchronization", "Dispatch", "Foundation", "FoundationEssentials",
    "Testing", "XCTest", "Observation",
]

DECL_KINDS_WITH_SIGNATURE = {
    "func_decl", "constructor_decl", "subscript_decl", "var_decl", "accessor_decl", "parameter",
    "typealias", "enum_element_decl",
}


def version(text):
    parts = [int(p) for p in text.split(".")]
    return tuple((parts + [0, 0])[:2])


def show(v):
    return "%d.%d" % v if v[1] else "%d" % v[0]


_started = [None]


def timing(label):
    """With AVAILABILITY_TIMING set, prints how long each phase took."""
    import time
    now = time.monotonic()
    if _started[0] is None:
        _started[0] = now
    if os.environ.get("AVAILABILITY_TIMING"):
        print("  %6.1f s  %s" % (now - _started[0], label), file=sys.stderr)


def die(message):
    print("availability: " + message, file=sys.stderr)
    sys.exit(2)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


# ---------------------------------------------------------------------------------------------
# SDK availability from symbol graphs


def platform_versions(entries):
    """Symbol-graph availability list -> {platform: version}; visionOS follows iOS when silent."""
    result = {}
    for entry in entries or []:
        domain = entry.get("domain")
        if domain in PLATFORMS and "introduced" in entry:
            i = entry["introduced"]
            result[domain] = (i.get("major", 0), i.get("minor", 0))
    if "visionOS" not in result and "iOS" in result:
        ios = result["iOS"]
        result["visionOS"] = ios if ios[0] >= 26 else ((ios[0] - 16, ios[1]) if ios[0] >= 17 else (1, 0))
    return result


def sdk_tables(target, workdir):
    by_usr, by_type_name = {}, {}

    def extract(module):
        out = os.path.join(workdir, module)
        os.makedirs(out, exist_ok=True)
        r = run(["swift-symbolgraph-extract", "-module-name", module, "-target", target,
                 "-output-dir", out, "-include-spi-symbols", "-minimum-access-level", "public"])
        if r.returncode != 0:
            die("symbol graph of %s failed:\n%s" % (module, r.stderr[-2000:]))
        return out

    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=2) as pool:
        folders = list(pool.map(extract, SDK_MODULES))
    for module, out in zip(SDK_MODULES, folders):
        for name in sorted(os.listdir(out)):
            graph = json.load(open(os.path.join(out, name)))
            for symbol in graph["symbols"]:
                versions = platform_versions(symbol.get("availability"))
                if not versions:
                    continue
                usr = symbol["identifier"]["precise"]
                by_usr[usr] = (versions, module + "." + ".".join(symbol["pathComponents"]))
                if symbol["kind"]["identifier"] in ("swift.struct", "swift.class", "swift.enum",
                                                    "swift.protocol", "swift.typealias"):
                    path = ".".join(symbol["pathComponents"])
                    names = [module + "." + path]
                    if module == "_Concurrency":
                        names.append("Swift." + path)  # the demangler spells them Swift.X
                    for n in names:
                        by_type_name.setdefault(n, versions)
    return by_usr, by_type_name


# ---------------------------------------------------------------------------------------------
# The package's targets, as SwiftPM compiles them


DROP_WITH_VALUE = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path",
                   "-o", "-j"}
DROP = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode",
        "-serialize-diagnostics", "-parseable-output", "-emit-objc-header", "-g", "-whole-module-optimization",
        "-enable-testing"}


def package_modules(root, build_dir):
    manifest = os.path.join(build_dir, "..", "debug.yaml")
    if not os.path.exists(manifest):
        manifest = os.path.join(os.path.dirname(os.path.realpath(build_dir)), "..", "debug.yaml")
    if not os.path.exists(manifest):
        die("no debug.yaml under %s: run `swift build --build-tests` first" % build_dir)
    text = open(manifest).read()
    modules = {}
    for match in re.finditer(r'^  "C\.([^"]+)-[^"-]+-debug\.module":\n((?:    .*\n)+)', text, re.M):
        body = match.group(2)
        args_line = re.search(r"^    args: (\[.*\])$", body, re.M)
        if not args_line:
            continue
        args = json.loads(args_line.group(1))
        if "-module-name" not in args:
            continue
        name = args[args.index("-module-name") + 1]
        sources = []
        kept = [args[0]]
        skip = keep_next = False
        for arg in args[1:]:
            if skip:
                skip = False
                continue
            if keep_next:
                kept.append(arg)
                keep_next = False
                continue
            if arg in ("-Xcc", "-Xfrontend", "-Xllvm", "-Xlinker"):
                kept.append(arg)
                keep_next = True
                continue
            if arg in DROP_WITH_VALUE:
                skip = True
                continue
            if arg in DROP or re.match(r"^-j\d+$", arg):
                continue
            if arg.startswith("@") and arg.endswith("/sources"):
                sources = [line for line in open(arg[1:]).read().split("\n") if line.endswith(".swift")]
                continue
            kept.append(arg)
        sources = [s for s in sources if s.startswith(root + "/") and not s.startswith(root + "/.build")]
        if sources:
            modules[name] = (kept, sources)
    if not modules:
        die("no package modules found in %s" % manifest)
    return modules


def dump_module(args, sources):
    r = run(args + ["-typecheck", "-dump-ast", "-dump-ast-format", "json"] + sources)
    stream = r.stdout + r.stderr
    decoder = json.JSONDecoder()
    files = []
    for match in re.finditer(r'\{"_kind":"source_file"', stream):
        try:
            document, _ = decoder.raw_decode(stream, match.start())
        except json.JSONDecodeError:
            continue
        files.append(document)
    if r.returncode != 0 or len(files) != len(sources):
        errors = "\n".join(line for line in re.sub(r'\{"_kind":"source_file".*', "", stream).split("\n")
                           if "error:" in line)
        die("type-checking %s failed (%d of %d files dumped):\n%s"
            % (sources[0].split("/Sources/")[-1].split("/")[0], len(files), len(sources), errors[:4000]))
    return files


# ---------------------------------------------------------------------------------------------
# Walking one file's AST


def attrs_versions(node):
    """(@available introductions of a declaration, True if it is unavailable everywhere)."""
    result, unavailable = {}, False
    for attr in node.get("attrs", []) or []:
        if attr.get("_kind") != "available_attr":
            continue
        domain = attr.get("domain")
        if attr.get("unavailable") and domain in ("*", None):
            unavailable = True
        if domain in PLATFORMS and "introduced" in attr:
            result[domain] = version(attr["introduced"])
    return result, unavailable


def raise_context(ctx, versions):
    if not versions:
        return ctx
    merged = dict(ctx)
    for platform, v in versions.items():
        if v > merged[platform]:
            merged[platform] = v
    return merged


def availability_query(condition, source, stmt_range):
    """For a `#available` condition: ({platform: version}, is_unavailable)."""
    specs = condition.get("queries", [])
    versions = {s["domain"]: version(s["version"]) for s in specs if s.get("domain") in PLATFORMS and "version" in s}
    has_wildcard = any(s.get("domain") == "*" for s in specs)
    text = source[stmt_range["start"]:stmt_range["end"] + 1] if stmt_range else ""
    is_unavailable = not has_wildcard or text.lstrip().startswith(("if #unavailable", "guard #unavailable",
                                                                      "while #unavailable"))
    return versions, is_unavailable


class FileWalker:
    def __init__(self, document, on_decl, on_use):
        self.path = document["filename"]
        # JSON ranges are byte offsets. Latin-1 maps byte i to character i, so `text` is indexed
        # by the same offsets.
        self.bytes = open(self.path, "rb").read()
        self.text = self.bytes.decode("latin-1")
        self.on_decl = on_decl
        self.on_use = on_use
        self.document = document
        self.declaration_offset = 0

    def location(self, offset):
        prefix = self.bytes[:offset]
        line = prefix.count(b"\n") + 1
        column = len(prefix) - (prefix.rfind(b"\n") + 1) + 1
        return "%s:%d:%d" % (self.path, line, column)

    def reference_location(self, offset, name):
        """The use's location; a use the compiler made up (a macro expansion, implicit code) has
        offsets into another buffer, so it is placed at the enclosing declaration instead."""
        if name and name != "init" and not self.bytes.startswith(name.encode("utf-8"), offset):
            # A member reference's range starts at its base (`a.b` at `a`): accept the name on the
            # same line after the offset.
            line_end = self.bytes.find(b"\n", offset)
            if self.bytes.find(name.encode("utf-8"), offset, line_end if line_end >= 0 else None) < 0:
                return self.location(self.declaration_offset) + " (in code the compiler generated here)"
        return self.location(offset)

    def walk(self):
        self.visit_list(self.document.get("items", []), dict(FLOOR), 0)

    def visit_list(self, items, ctx, offset):
        ctx = dict(ctx)
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                self.visit(item, ctx, offset)
                continue
            kind = item.get("_kind")
            if kind == "pattern_binding_decl":
                # A stored property's `@available` sits on the var_decl siblings that follow.
                extra = {}
                for sibling in items[index + 1:]:
                    if not isinstance(sibling, dict) or sibling.get("_kind") != "var_decl":
                        break
                    extra = raise_context(raise_context(dict(FLOOR), extra), attrs_versions(sibling)[0])
                self.visit(item, raise_context(ctx, {p: v for p, v in extra.items() if v > FLOOR[p]}), offset)
                continue
            if kind == "guard_stmt":
                refined = self.visit_conditional(item, ctx, offset)
                ctx = refined
                continue
            self.visit(item, ctx, offset)

    def visit_conditional(self, stmt, ctx, offset):
        """Visits an if/guard/while; returns the context after it (refined by `guard #available`)."""
        rng = stmt.get("range")
        if rng:
            offset = rng["start"]
        positive, negative = dict(ctx), dict(ctx)
        for condition in stmt.get("conditions", []) or []:
            if isinstance(condition, dict) and condition.get("_kind") == "#available":
                versions, is_unavailable = availability_query(condition, self.text, rng)
                if is_unavailable:
                    negative = raise_context(negative, versions)
                else:
                    positive = raise_context(positive, versions)
                continue
            self.visit(condition, positive, offset)
        kind = stmt.get("_kind")
        if kind == "guard_stmt":
            self.visit(stmt.get("body"), negative, offset)
            return positive
        for key, value in stmt.items():
            if key in ("conditions", "range", "_kind"):
                continue
            self.visit(value, negative if key == "else_stmt" else positive, offset)
        return ctx


    def visit(self, node, ctx, offset):
        if isinstance(node, list):
            self.visit_list(node, ctx, offset)
            return
        if not isinstance(node, dict):
            return
        rng = node.get("range")
        if rng and isinstance(rng, dict) and "start" in rng:
            offset = rng["start"]
        kind = node.get("_kind", "")
        if kind in ("if_stmt", "while_stmt", "guard_stmt"):
            self.visit_conditional(node, ctx, offset)
            return
        is_decl = kind.endswith("_decl") or kind in ("typealias", "parameter")
        saved_declaration = self.declaration_offset
        if is_decl and rng and kind != "parameter":
            self.declaration_offset = offset
        try:
            self.visit_node(node, kind, is_decl, ctx, offset)
        finally:
            self.declaration_offset = saved_declaration

    def visit_node(self, node, kind, is_decl, ctx, offset):
        if is_decl:
            versions, unavailable = attrs_versions(node)
            if unavailable:
                return  # never compiled into a call site; nothing to check
            ctx = raise_context(ctx, versions)
            if node.get("usr"):
                self.on_decl(node["usr"], ctx, node, self.location(offset))
            if not node.get("implicit"):
                if kind in DECL_KINDS_WITH_SIGNATURE:
                    for key in ("interface_type", "result"):
                        if isinstance(node.get(key), str) and node[key].startswith("$s"):
                            self.on_use("type", node[key], ctx, self.location(offset))
                if kind == "extension_decl" and node.get("extended_type"):
                    self.on_use("type", node["extended_type"], ctx, self.location(offset))
                inherits = node.get("inherits") or {}
                for conformance in inherits.get("conformances", []) or []:
                    if conformance.get("source_kind") == "explicit" and conformance.get("protocol"):
                        self.on_use("usr", conformance["protocol"], ctx, self.location(offset))
        elif kind in ("pattern_typed", "type_expr", "coerce_expr", "is_subpattern", "conditional_checked_cast_expr",
                      "forced_checked_cast_expr", "is_expr") and not node.get("implicit"):
            if isinstance(node.get("type"), str) and node["type"].startswith("$s"):
                self.on_use("type", node["type"], ctx, self.location(offset))
        elif kind == "decl_ref" and node.get("decl_usr"):
            self.on_use("usr", node["decl_usr"], ctx, self.reference_location(offset, node.get("base_name")))
        for key, value in node.items():
            if key in ("range", "_kind", "attrs") or not isinstance(value, (dict, list)):
                continue
            if is_decl and key == "inherits":
                continue
            if key == "default_args_owner":
                continue  # the called function again, already checked at the call
            self.visit(value, ctx, offset)


# ---------------------------------------------------------------------------------------------


def main():
    root = os.getcwd()
    build_dir = os.path.join(root, ".build", "debug")
    plants = []
    only = None
    list_inactive = False
    argv = sys.argv[1:]
    while argv:
        arg = argv.pop(0)
        if arg == "--build-dir":
            build_dir = os.path.abspath(argv.pop(0))
        elif arg == "--plant":
            module, _, path = argv.pop(0).partition("=")
            plants.append((module, os.path.abspath(path)))
        elif arg == "--modules":
            only = set(argv.pop(0).split(","))
        elif arg == "--list-inactive":
            list_inactive = True
        else:
            die("unknown argument %s" % arg)

    manifest = open(os.path.join(root, "Package.swift")).read()
    declared = dict(re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+)\)", manifest))
    if {p: (int(v), 0) for p, v in declared.items()} != FLOOR:
        die("Package.swift's platforms %s differ from this check's floor %s" % (declared, FLOOR))

    timing("start")
    target = json.loads(run(["swiftc", "-print-target-info"]).stdout)["target"]["triple"]
    with tempfile.TemporaryDirectory() as workdir:
        sdk_by_usr, sdk_types = sdk_tables(target, workdir)

    timing("symbol graphs")
    modules = package_modules(root, build_dir)
    if only:
        modules = {name: value for name, value in modules.items() if name in only}
    for module, path in plants:
        if module not in modules:
            die("--plant names unknown module %s (have %s)" % (module, ", ".join(sorted(modules))))
        modules[module][1].append(path)

    # Two at a time: each type-check is one compiler process, and CI has two cores.
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=2) as pool:
        dumped = list(pool.map(lambda name: dump_module(*modules[name]), sorted(modules)))
    documents = [document for files in dumped for document in files]
    timing("type-checked %d modules" % len(modules))

    own = {}          # usr -> (ctx, node)
    locations = {}    # usr -> where it is declared
    uses = []         # (kind, key, ctx, location)

    def on_decl(usr, ctx, node, location):
        own[usr] = (ctx, node)
        locations[usr] = location

    def on_use(kind, key, ctx, location):
        uses.append((kind, key, ctx, location))

    for document in documents:
        FileWalker(document, on_decl, on_use).walk()
    timing("walked %d files" % len(documents))

    # Our own nominal types by qualified name (the demangler's spelling), for type annotations.
    own_type_usrs = [u for u, (_, n) in own.items()
                     if n.get("_kind") in ("struct_decl", "class_decl", "enum_decl", "protocol_decl", "typealias")]
    mangled = sorted({key for kind, key, _, _ in uses if kind == "type"})
    usr_manglings = ["$s" + u[2:] for u in own_type_usrs]
    demangled = run(["swift", "demangle", "--compact"], input="\n".join(mangled + usr_manglings) + "\n").stdout.split("\n")
    type_names = dict(zip(mangled, demangled[:len(mangled)]))
    own_types = {}
    for usr, name in zip(own_type_usrs, demangled[len(mangled):len(mangled) + len(usr_manglings)]):
        own_types[name.strip()] = own[usr][0]

    def required(kind, key):
        """[(name, {platform: version})] a use needs."""
        if kind == "usr":
            if key in sdk_by_usr:
                versions, name = sdk_by_usr[key]
                return [(name, versions)]
            if key in own:
                node = own[key][1]
                name = (node.get("name") or {}).get("base_name", {}).get("name") or key
                return [(name, {p: v for p, v in own[key][0].items() if v > FLOOR[p]})]
            return []
        found = []
        for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+", type_names.get(key, "")):
            if name in sdk_types:
                found.append((name, sdk_types[name]))
            elif name in own_types:
                found.append((name, {p: v for p, v in own_types[name].items() if v > FLOOR[p]}))
        return found

    problems = {}
    checked = 0
    for kind, key, ctx, location in uses:
        needs = required(kind, key)
        checked += bool(needs)
        for name, versions in needs:
            short = [p for p in PLATFORMS if p in versions and versions[p] > ctx[p]]
            if short:
                need = ", ".join("%s %s" % (p, show(versions[p])) for p in short)
                have = ", ".join("%s %s" % (p, show(ctx[p])) for p in short)
                problems.setdefault(location, set()).add(
                    "'%s' needs %s; this context guarantees only %s" % (name, need, have))

    # Runtime symbols bound by @_silgen_name.
    runtime_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(
        run(["which", "swiftc"]).stdout.strip()))), "lib", "swift", "linux")
    for usr, (ctx, node) in own.items():
        for attr in node.get("attrs", []) or []:
            if attr.get("_kind") != "silgen_name_attr":
                continue
            symbol = attr.get("name")
            entry = RUNTIME_SYMBOLS.get(symbol)
            where = locations[usr]
            if entry is None:
                problems.setdefault(where, set()).add(
                    "@_silgen_name(\"%s\") is not a runtime entry point this check knows; add it to "
                    "RUNTIME_SYMBOLS with the Apple runtimes that export it" % symbol)
                continue
            exported = run(["nm", "-D", "--defined-only", os.path.join(runtime_dir, entry["library"])]).stdout
            if not re.search(r"\s%s$" % re.escape(symbol), exported, re.M):
                problems.setdefault(where, set()).add("%s is not exported by %s" % (symbol, entry["library"]))
            witness = sdk_by_usr.get(entry["public_witness"])
            if witness is None:
                problems.setdefault(where, set()).add("%s: public witness %s not found" % (symbol, entry["public_witness"]))
                continue
            short = [p for p in PLATFORMS if witness[0].get(p, (0, 0)) > ctx[p]]
            if short:
                problems.setdefault(where, set()).add(
                    "@_silgen_name(\"%s\") needs %s (as %s); the binding's context guarantees only %s"
                    % (symbol, ", ".join("%s %s" % (p, show(witness[0][p])) for p in short), witness[1],
                       ", ".join("%s %s" % (p, show(ctx[p])) for p in short)))

    if list_inactive:
        for document in documents:
            text = open(document["filename"], encoding="utf-8").read()
            for number, line in enumerate(text.split("\n"), 1):
                if re.match(r"\s*#(if|elseif)\b.*(canImport\(Darwin\)|os\((macOS|iOS|tvOS|watchOS|visionOS)\))", line):
                    print("only partly seen here (Apple branch of an #if): %s:%d: %s"
                          % (os.path.relpath(document["filename"], root), number, line.strip()))

    if problems:
        def order(location):
            parts = re.match(r"(.*?):(\d+):(\d+)(.*)", location)
            return (parts.group(1), int(parts.group(2)), int(parts.group(3))) if parts else (location, 0, 0)

        for location in sorted(problems, key=order):
            for message in sorted(problems[location]):
                print("%s: error: %s" % (location, message))
        print("availability: %d uses not covered by @available/#available at the package floor "
              "(%s)" % (sum(len(v) for v in problems.values()),
                        ", ".join("%s %s" % (p, show(FLOOR[p])) for p in PLATFORMS)))
        sys.exit(1)
    print("availability: %d files, %d uses of declarations with Apple availability, all covered "
          "(%d SDK declarations known)" % (len(documents), checked, len(sdk_by_usr)))


if __name__ == "__main__":
    main()
