#!/usr/bin/env python3
"""Checks that a Swift package's manifest declares exactly what its targets import.

    python3 scripts/check_manifest.py [PACKAGE_DIR ...]    # default: the repository root
    python3 scripts/check_manifest.py --dump FILE [PACKAGE_DIR]

Reads the manifest with `swift package dump-package` (run in PACKAGE_DIR; `--dump` reads a saved dump instead) and,
for every target with Swift sources (regular, executable, test, macro; system-library, binary and plugin targets import
nothing, but they are modules others may import), compares the modules its sources import with the dependencies it
declares. Two findings, one line each:

    <target>: imports X but does not declare it   (a module reached only transitively is drift too: SwiftPM builds it,
                                                   but the manifest no longer says what the target needs)
    <target>: declares X but never imports it     (none of the modules of dependency X is imported)

and, for a package with rules in LAYERING (this repository's), two more: a target that reaches a target it must keep
out of its dependency closure (`<target>: reaches X (A -> B -> X), which it must not`), and a C library declared by a
target other than its one importer.

Exit 1 when there is any finding, else one summary line (per package) and exit 0; exit 2 when a manifest cannot be
read. `SWIFT` names the swift command (default `swift`), as the Makefile's $(SWIFT) does.

Imports are read from the sources with comments and string literals (multi-line and raw ones too) blanked out, so that
code quoted inside a string or a comment is not an import. Every form counts: `import X`, `import X.Y` (module X),
`import struct X.Y`, `@testable`/`@_exported`/`@preconcurrency`/`@_spi(S)`/`@_implementationOnly import X`,
`public`/`package`/`internal`/`fileprivate`/`private import X`, and imports inside `#if` blocks (`#if canImport(X)`
included: the import is in the source, so it is an import).

A target dependency (`"Name"` or `.target(name:)`) is one module; a `.product(name:package:)` is the modules of that
product, read from the dependency's own manifest (in `.build/checkouts/<package>`, or a path dependency's directory):
the product's targets and the targets of that package they depend on (so swift-collections' `Collections`, whose
target re-exports `DequeModule` and the others, counts as imported when any of them is). When the checkout is missing
(no `swift package resolve` yet) the product is taken as one module of its own name, and a note says so on stderr.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys

# Modules of the toolchain and the platform: every target may import them without declaring anything.
TOOLCHAIN_MODULES = frozenset({
    # The standard library and its companions.
    "Swift", "SwiftShims", "SwiftOnoneSupport", "_Concurrency", "_StringProcessing", "RegexBuilder", "_RegexParser",
    "Synchronization", "Observation", "Distributed", "_Differentiation", "Cxx", "CxxStdlib", "_Volatile",
    "_Backtracing", "Runtime",
    # Foundation and Dispatch (swift-corelibs on Linux, the SDK's on Darwin).
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    "Dispatch", "CoreFoundation",
    # The C library of each platform.
    "Glibc", "SwiftGlibc", "Musl", "Bionic", "Android", "WASILibc", "Darwin", "ucrt", "WinSDK", "CRT", "os",
    "ObjectiveC",
    # Test frameworks.
    "XCTest", "Testing",
})

# Findings that are not drift, each with its reason: (target, "imports" | "declares", module or dependency) -> reason.
# A dependency declared only to link a C library, or only for its plugin or resources, belongs here. None so far.
EXCEPTIONS: dict[tuple[str, str, str], str] = {}

# This repository's layering (docs/architecture.md#layering), checked on the package of that name over its own targets'
# dependencies, transitively. "below": libraries that must not link a C library at all, even through another target
# (a user who brings another transport links no libwebsockets); "keeps out": a target and what must stay out of its
# closure (optional products stay optional); "only importer": each C library and the one target that may depend on it.
LAYERING: dict[str, dict] = {
    "KurentoSignaling": {
        "below": {"SignalingSupport", "SDP", "PeerManager", "JSONRPC", "RoomProtocol", "SharedObjects",
                  "SharedObjectServer", "RoomClusterCore"},
        "c libraries": {"CLibWebSockets", "CHiredis", "CSQLite"},
        "keeps out": {"RoomServer": {"CSQLite", "SharedObjectSQLite", "CHiredis", "RoomCluster"}},
        "only importer": {"CLibWebSockets": "WebSocketTransport", "CHiredis": "RoomCluster",
                          "CSQLite": "SharedObjectSQLite"},
    },
}

# The directories SwiftPM looks in for a target without `path:`.
SOURCE_DIRECTORIES = ("Sources", "Source", "src", "srcs")
TEST_DIRECTORIES = ("Tests",) + SOURCE_DIRECTORIES
# Targets that have no Swift sources of their own to check.
NON_SWIFT_TARGET_TYPES = frozenset({"system", "binary", "plugin"})

IMPORT_PATTERN = re.compile(
    r"""
    (?:^|;)[ \t]*                                   # the start of a statement
    (?:@\w+(?:\([^()\n]*\))?\s+)*                   # @testable, @_exported, @preconcurrency, @_spi(Name), ...
    (?:(?:public|package|internal|fileprivate|private|open)\s+)?
    (?:@\w+(?:\([^()\n]*\))?\s+)*
    import\s+
    (?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?
    `?(?P<module>[A-Za-z_][A-Za-z0-9_]*)`?          # the module: the first component of X.Y
    """,
    re.MULTILINE | re.VERBOSE,
)
# What changes the scanner's state in code, and in a block comment.
CODE_EVENT = re.compile(r'//|/\*|#*"')
INTERPOLATION_EVENT = re.compile(r'//|/\*|#*"|[()]')
BLOCK_COMMENT_EVENT = re.compile(r"/\*|\*/")
NOT_NEWLINE = re.compile(r"[^\n]")


class ManifestError(Exception):
    """The manifest (or a dependency's) could not be read."""


# Sources ------------------------------------------------------------------------------------------------------------


def blank_comments_and_strings(text: str) -> str:
    """Returns `text` with every comment and string literal replaced by spaces (newlines kept)."""
    out = list(text)
    _scan_code(text, 0, out, nested=False)
    return "".join(out)


def _blank(out: list[str], start: int, end: int) -> None:
    out[start:end] = NOT_NEWLINE.sub(" ", "".join(out[start:end]))


def _scan_code(text: str, index: int, out: list[str], nested: bool) -> int:
    """Scans code from `index`; inside an interpolation (`nested`) stops after its closing parenthesis."""
    depth = 0
    length = len(text)
    events = INTERPOLATION_EVENT if nested else CODE_EVENT
    while (found := events.search(text, index)) is not None:
        index = found.start()
        token = found.group()
        if token == "//":
            end = text.find("\n", index)
            end = length if end < 0 else end
            _blank(out, index, end)
            index = end
        elif token == "/*":
            end = _skip_block_comment(text, index)
            _blank(out, index, end)
            index = end
        elif token.endswith('"'):
            hashes = token.count("#")
            multiline = text.startswith('"""', index + hashes)
            end = _skip_string(text, index + hashes + (3 if multiline else 1), hashes, multiline, out)
            _blank(out, index, end)
            index = end
        elif token == "(":
            depth += 1
            index += 1
        else:  # ")"
            index += 1
            if depth == 0:
                return index
            depth -= 1
    return length


def _skip_block_comment(text: str, index: int) -> int:
    """Returns the index after the block comment opening at `index` (block comments nest in Swift)."""
    depth = 0
    while (found := BLOCK_COMMENT_EVENT.search(text, index)) is not None:
        index = found.end()
        depth += 1 if found.group() == "/*" else -1
        if depth == 0:
            return index
    return len(text)


def _skip_string(text: str, index: int, hashes: int, multiline: bool, out: list[str]) -> int:
    """Returns the index after the string literal whose content starts at `index`."""
    closing = ('"""' if multiline else '"') + "#" * hashes
    escape = "\\" + "#" * hashes
    events = re.compile("|".join(re.escape(token) for token in (escape, closing) + (() if multiline else ("\n",))))
    while (found := events.search(text, index)) is not None:
        token = found.group()
        index = found.end()
        if token == closing:
            return index
        if token == "\n":
            return index - 1  # unterminated: the compiler would refuse it; resume at the next line
        if text.startswith("(", index):  # an interpolation: code, with strings and comments of its own
            index = _scan_code(text, index + 1, out, nested=True)
        else:
            index += 1  # the escaped character
    return len(text)


def imported_modules(source: str) -> set[str]:
    """The modules a Swift source imports."""
    return {match.group("module") for match in IMPORT_PATTERN.finditer(blank_comments_and_strings(source))}


def module_name(target_name: str) -> str:
    """The module name SwiftPM gives a target (its c99 name: `room-join` is `room_join`)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", target_name)
    return "_" + name if name[:1].isdigit() else name


def target_directory(package_dir: str, target: dict) -> str | None:
    if target.get("path"):
        return os.path.normpath(os.path.join(package_dir, target["path"]))
    roots = TEST_DIRECTORIES if target.get("type") == "test" else SOURCE_DIRECTORIES
    for root in roots:
        candidate = os.path.join(package_dir, root, target["name"])
        if os.path.isdir(candidate):
            return candidate
    return None


def swift_sources(directory: str, target: dict) -> list[str]:
    """The target's Swift files: its `sources:` (or its whole directory) without its `exclude:`."""
    excluded = [os.path.normpath(os.path.join(directory, path)) for path in target.get("exclude") or []]
    listed = [os.path.normpath(os.path.join(directory, path)) for path in target.get("sources") or []] or [directory]
    files = []
    for start in listed:
        if os.path.isfile(start):
            candidates = [start]
        else:
            candidates = []
            for folder, subfolders, names in os.walk(start):
                subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
                candidates += [os.path.join(folder, name) for name in sorted(names) if not name.startswith(".")]
        for path in candidates:
            if path.endswith(".swift") and not any(path == ex or path.startswith(ex + os.sep) for ex in excluded):
                files.append(path)
    return files


# Manifests ----------------------------------------------------------------------------------------------------------


def dump_package(package_dir: str) -> dict:
    swift = os.environ.get("SWIFT") or "swift"  # as the Makefile's $(SWIFT): a command, maybe with arguments
    try:
        result = subprocess.run(shlex.split(swift) + ["package", "dump-package"], cwd=package_dir,
                                capture_output=True, text=True)
    except OSError as error:
        raise ManifestError(f"cannot run `{swift} package dump-package` in {package_dir}: {error}") from error
    if result.returncode != 0:
        raise ManifestError(f"`{swift} package dump-package` failed in {package_dir}:\n{result.stderr.strip()}")
    return json.loads(result.stdout)


def _entry(dependency: dict) -> tuple[str, dict]:
    """('sourceControl' | 'fileSystem' | 'registry', its fields) of one entry of a dump's `dependencies`."""
    (kind, values), = dependency.items()
    return kind, values[0]


class Packages:
    """The dependency packages of one root package, their manifests read once each."""

    def __init__(self, package_dir: str, dump: dict):
        self.package_dir = package_dir
        self.dump = dump
        self.checkouts = os.path.join(package_dir, ".build", "checkouts")
        self.dumps: dict[str, dict | None] = {}
        self.notes: list[str] = []

    def directory(self, kind: str, fields: dict) -> str | None:
        if kind == "fileSystem":
            return os.path.normpath(os.path.join(self.package_dir, fields["path"]))
        if kind == "sourceControl":
            names = {fields["identity"].lower()}
            for location in fields.get("location", {}).get("remote", []):
                url = location.get("urlString", "").rstrip("/")
                names.add(re.sub(r"\.git$", "", url.rsplit("/", 1)[-1]).lower())
            for location in fields.get("location", {}).get("local", []):
                names.add(os.path.basename(str(location).rstrip("/")).lower())
            if os.path.isdir(self.checkouts):
                for entry in sorted(os.listdir(self.checkouts)):
                    if entry.lower() in names and os.path.isdir(os.path.join(self.checkouts, entry)):
                        return os.path.join(self.checkouts, entry)
        return None

    def manifest(self, kind: str, fields: dict) -> dict | None:
        identity = fields["identity"]
        if identity not in self.dumps:
            directory = self.directory(kind, fields)
            if directory is None or not os.path.isfile(os.path.join(directory, "Package.swift")):
                self.dumps[identity] = None
            else:
                try:
                    self.dumps[identity] = self.cached_dump(identity, directory)
                except ManifestError as error:
                    self.notes.append(f"note: {error}")
                    self.dumps[identity] = None
        return self.dumps[identity]

    def cached_dump(self, identity: str, directory: str) -> dict:
        """A dependency's dump, kept in .build/check-manifest-cache/ under the hash of its manifest files: a dump
        takes a second or two, and the checkouts change only when the dependencies are resolved again."""
        digest = hashlib.sha256(directory.encode())
        for name in sorted(os.listdir(directory)):
            if name.startswith("Package") and name.endswith(".swift"):
                with open(os.path.join(directory, name), "rb") as manifest:
                    digest.update(name.encode() + b"\0" + manifest.read() + b"\0")
        cache = os.path.join(self.package_dir, ".build", "check-manifest-cache", f"{identity}-{digest.hexdigest()[:16]}.json")
        try:
            with open(cache, encoding="utf-8") as file:
                return json.load(file)
        except (OSError, ValueError):
            pass
        dump = dump_package(directory)
        try:
            os.makedirs(os.path.dirname(cache), exist_ok=True)
            with open(cache + ".tmp", "w", encoding="utf-8") as file:
                json.dump(dump, file)
            os.replace(cache + ".tmp", cache)
        except OSError:
            pass  # a read-only tree: no cache, same answer
        return dump

    def dependency_manifests(self, package: str | None):
        """(identity, manifest or None) of the dependencies a product dependency's `package:` may name: by identity or
        declared name first, by the package's own name (which needs its manifest) only when neither matches."""
        entries = [_entry(dependency) for dependency in self.dump.get("dependencies", [])]
        if package is not None:
            wanted = package.lower()
            named = [(kind, fields) for kind, fields in entries
                     if wanted in {fields["identity"].lower(),
                                   (fields.get("nameForTargetDependencyResolutionOnly") or "").lower()}]
            if named:
                entries = named
            else:
                entries = [(kind, fields) for kind, fields in entries
                           if (self.manifest(kind, fields) or {}).get("name", "").lower() == wanted]
        for kind, fields in entries:
            yield fields["identity"], self.manifest(kind, fields)

    def product_modules(self, package: str | None, product: str) -> tuple[set[str], set[str]] | None:
        """(the product's own targets, those and the package's targets they depend on) as module names, or None."""
        for _, manifest in self.dependency_manifests(package):
            if manifest is None:
                continue
            for candidate in manifest.get("products", []):
                if candidate["name"] == product and "library" in candidate.get("type", {}):
                    direct = set(candidate["targets"])
                    return {module_name(name) for name in direct}, {
                        module_name(name) for name in _target_closure(manifest, direct)}
        return None

    def missing(self, package: str | None, product: str) -> None:
        found = [identity for identity, manifest in self.dependency_manifests(package) if manifest is not None]
        where = f"package {package}" if package else "the dependencies"
        reason = (f"not a library product of {', '.join(found)}" if found else
                  f"no manifest of {where} (no checkout in {os.path.relpath(self.checkouts)}: `swift package resolve`)")
        note = f"note: product {product}: {reason}; taken as module {product}"
        if note not in self.notes:
            self.notes.append(note)


def _target_closure(manifest: dict, names: set[str]) -> set[str]:
    targets = {target["name"]: target for target in manifest.get("targets", [])}
    closure, pending = set(), list(names)
    while pending:
        name = pending.pop()
        if name in closure or name not in targets:
            continue
        closure.add(name)
        for dependency in targets[name].get("dependencies", []):
            (kind, values), = dependency.items()
            if kind in ("byName", "target"):
                pending.append(values[0])
    return closure


class Dependency:
    """One declared dependency of a target: its name as declared and the modules it brings."""

    def __init__(self, name: str, direct: set[str], closure: set[str]):
        self.name, self.direct, self.closure = name, direct, closure


def declared_dependencies(target: dict, targets: dict[str, dict], packages: Packages) -> list[Dependency]:
    dependencies: dict[str, Dependency] = {}
    for dependency in target.get("dependencies", []):
        (kind, values), = dependency.items()
        name = values[0]
        if kind == "target" or (kind == "byName" and name in targets):
            modules = {module_name(name)}
            dependencies.setdefault(name, Dependency(name, modules, modules))
            continue
        package = values[1] if kind == "product" else None
        aliases = (values[2] if kind == "product" and len(values) > 2 else None) or {}
        found = packages.product_modules(package, name)
        if found is None:
            packages.missing(package, name)
            found = ({module_name(name)}, {module_name(name)})
        direct, closure = ({aliases.get(module, module) for module in modules} for modules in found)
        dependencies.setdefault(name, Dependency(name, direct, closure))
    return list(dependencies.values())


# The check ----------------------------------------------------------------------------------------------------------


def check_target(target: dict, imports: set[str], dependencies: list[Dependency]) -> list[str]:
    """The findings of one target, given the modules its sources import and its declared dependencies."""
    name = target["name"]
    own = module_name(name)
    findings, used = [], set()
    for module in sorted(imports - TOOLCHAIN_MODULES - {own}):
        # A module is credited to the dependencies that vend it as their own target, else to those that contain it.
        providers = [d for d in dependencies if module in d.direct] or [d for d in dependencies if module in d.closure]
        used.update(d.name for d in providers)
        if not providers and (name, "imports", module) not in EXCEPTIONS:
            findings.append(f"{name}: imports {module} but does not declare it")
    for dependency in dependencies:
        if dependency.name not in used and (name, "declares", dependency.name) not in EXCEPTIONS:
            findings.append(f"{name}: declares {dependency.name} but never imports it")
    return findings


def layering_findings(dump: dict) -> list[str]:
    """The findings of the package's LAYERING rules (none for a package without rules), one line each."""
    rules = LAYERING.get(dump.get("name", ""))
    if not rules:
        return []
    targets = {target["name"]: target for target in dump.get("targets", [])}

    def path_to(start: str, goal: str) -> list[str] | None:
        """The shortest chain of the package's own target dependencies from `start` to `goal`, if any."""
        previous, queue = {start: None}, [start]
        while queue:
            name = queue.pop(0)
            if name == goal:
                chain = []
                while name is not None:
                    chain.append(name)
                    name = previous[name]
                return chain[::-1]
            for dependency in targets.get(name, {}).get("dependencies", []):
                (kind, values), = dependency.items()
                if kind in ("byName", "target") and values[0] in targets and values[0] not in previous:
                    previous[values[0]] = name
                    queue.append(values[0])
        return None

    findings = []
    forbidden = [(name, rules["c libraries"]) for name in sorted(rules.get("below", ()))]
    forbidden += sorted(rules.get("keeps out", {}).items())
    for name, kept_out in forbidden:
        for goal in sorted(kept_out):
            chain = path_to(name, goal)
            if chain:
                findings.append(f"{name}: reaches {goal} ({' -> '.join(chain)}), which it must not")
    for library, importer in sorted(rules.get("only importer", {}).items()):
        for target in dump.get("targets", []):
            declared = {next(iter(d.values()))[0] for d in target.get("dependencies", [])}
            if library in declared and target["name"] != importer:
                findings.append(f"{target['name']}: depends on {library}, which only {importer} may")
    return findings


def check_package(package_dir: str, dump: dict) -> tuple[list[str], list[str], int]:
    """(findings, notes, number of targets checked) for the package at `package_dir`."""
    packages = Packages(package_dir, dump)
    targets = {target["name"]: target for target in dump.get("targets", [])}
    findings, checked = [], 0
    for target in dump.get("targets", []):
        if target.get("type") in NON_SWIFT_TARGET_TYPES:
            continue
        directory = target_directory(package_dir, target)
        if directory is None or not os.path.isdir(directory):
            findings.append(f"{target['name']}: no source directory found (path: {target.get('path')})")
            continue
        sources = swift_sources(directory, target)
        if not sources:
            continue  # a C or C++ target
        imports: set[str] = set()
        for path in sources:
            with open(path, encoding="utf-8", errors="replace") as source:
                imports |= imported_modules(source.read())
        findings += check_target(target, imports, declared_dependencies(target, targets, packages))
        checked += 1
    return findings + layering_findings(dump), packages.notes, checked


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("packages", nargs="*", metavar="PACKAGE_DIR",
                        help=f"the packages' directories, each checked in turn (default: {repository})")
    parser.add_argument("--dump", metavar="FILE", help="read this saved `swift package dump-package` output instead")
    options = parser.parse_args(arguments)
    if options.dump and len(options.packages) > 1:
        parser.error("--dump reads the manifest of one package")
    status = 0
    for package in options.packages or [repository]:
        status = max(status, check(os.path.abspath(package), options.dump))
    return status


def check(package_dir: str, saved_dump: str | None) -> int:
    """Checks one package and prints its findings (or its summary); returns the exit status."""
    try:
        if saved_dump:
            with open(saved_dump, encoding="utf-8") as file:
                dump = json.load(file)
        else:
            dump = dump_package(package_dir)
        findings, notes, checked = check_package(package_dir, dump)
    except (ManifestError, OSError, ValueError) as error:
        print(f"check_manifest: {error}", file=sys.stderr)
        return 2
    for note in notes:
        print(note, file=sys.stderr)
    for finding in findings:
        print(finding)
    name = dump.get("name", package_dir)
    if findings:
        print(f"check_manifest: {len(findings)} finding(s) in {name} ({checked} targets checked)", file=sys.stderr)
        return 1
    layered = " and the layering kept" if name in LAYERING else ""
    print(f"check_manifest: {name}: {checked} targets checked, every import declared and every dependency "
          f"imported{layered}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
