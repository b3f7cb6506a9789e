"""Tests of check_manifest.py (`cd scripts && python3 -m unittest`): small dumps over temporary packages."""

import contextlib
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_manifest  # noqa: E402


def imports(source: str) -> set:
    return check_manifest.imported_modules(textwrap.dedent(source))


class ImportFormsTests(unittest.TestCase):
    def test_every_form_of_import_names_its_module(self):
        source = """
            import Plain
            import Dotted.Submodule
            import struct Kinded.Thing
            import func Functions.run
            import typealias Aliases.Name
            @testable import Tested
            @_exported import Exported
            @preconcurrency import Preconcurrent
            @_spi(Internal) import SPI
            @_implementationOnly import ImplementationOnly
            public import Public
            package import Packaged
            internal import Internal
            fileprivate import FilePrivate
            private import Private
            @preconcurrency public import AttributedPublic
            import `Backticked`
            let x = 1; import AfterSemicolon
                    import Indented
            @testable
            import AttributeOnItsOwnLine
            """
        self.assertEqual(imports(source), {
            "Plain", "Dotted", "Kinded", "Functions", "Aliases", "Tested", "Exported", "Preconcurrent", "SPI",
            "ImplementationOnly", "Public", "Packaged", "Internal", "FilePrivate", "Private", "AttributedPublic",
            "Backticked", "AfterSemicolon", "Indented", "AttributeOnItsOwnLine"})

    def test_imports_inside_conditional_compilation_are_imports(self):
        source = """
            #if canImport(Glibc)
            import Glibc
            #elseif canImport(Darwin)
            import Darwin
            #endif
            #if canImport(Optional)
                @preconcurrency import Optional
            #endif
            #if canImport(OnlyChecked)
            let checked = true
            #endif
            """
        self.assertEqual(imports(source), {"Glibc", "Darwin", "Optional"})

    def test_words_that_are_not_import_declarations(self):
        source = """
            let important = 1
            value.import(x)
            reimport Foo
            func importer() {}
            """
        self.assertEqual(imports(source), set())


class CommentsAndStringsTests(unittest.TestCase):
    def test_commented_out_imports_are_not_imports(self):
        source = """
            // import LineComment
            /// import DocComment
            /* import BlockComment */
            /*
            import MultiLineBlockComment
            */
            /* outer /* nested */
            import StillInsideTheOuterComment
            */
            import Real // import TrailingComment
            import AlsoReal /* import InlineBlock */
            """
        self.assertEqual(imports(source), {"Real", "AlsoReal"})

    def test_imports_inside_string_literals_are_not_imports(self):
        source = '''
            let readme = """
            import InsideMultiLineString
            // not a comment either
            """
            let raw = #"""
            """
            import InsideRawMultiLineStringAfterThreeQuotes
            """#
            let rawer = ##"""
            """#
            import InsideDoubleHashRawString
            """##
            let interpolated = """
            \\(names.map { "\\($0)" }.joined(separator: ")"))
            import InsideStringAfterInterpolation
            """
            let python = """
            import json, sys
            """
            import AfterTheStrings
            '''
        self.assertEqual(imports(source), {"AfterTheStrings"})

    def test_strings_with_escapes_end_where_they_end(self):
        source = r'''
            let quote = "\"" ; import AfterEscapedQuote
            let backslash = "\\" ; import AfterBackslash
            let raw = #"a " and \"# ; import AfterRawString
            let url = "http://example.com" ; import AfterSlashesInString
            let open = "/*" ; import AfterCommentOpenerInString
            '''
        self.assertEqual(imports(source), {
            "AfterEscapedQuote", "AfterBackslash", "AfterRawString", "AfterSlashesInString",
            "AfterCommentOpenerInString"})

    def test_blanking_keeps_lines(self):
        source = 'a\n"""\nb\n"""\n/* c\nd */ e // f\n'
        blanked = check_manifest.blank_comments_and_strings(source)
        self.assertEqual(len(blanked), len(source))
        self.assertEqual(blanked.count("\n"), source.count("\n"))
        self.assertEqual(blanked.split(), ["a", "e"])


def target(name, type_="regular", dependencies=(), **fields):
    def dependency(entry):
        if isinstance(entry, str):
            return {"byName": [entry, None]}
        kind, *values = entry
        if kind == "product":
            name, package, *aliases = values
            return {"product": [name, package, aliases[0] if aliases else None, None]}
        return {kind: [values[0], None]}
    return {"name": name, "type": type_, "dependencies": [dependency(entry) for entry in dependencies],
            "exclude": fields.pop("exclude", []), **fields}


def source_control(identity):
    return {"sourceControl": [{"identity": identity, "location": {"remote": [
        {"urlString": f"https://example.com/{identity}.git"}]}, "productFilter": None}]}


class PackageTests(unittest.TestCase):
    """A package in a temporary directory: sources written, the dump saved and read with --dump."""

    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="check-manifest-")
        self.addCleanup(shutil.rmtree, self.directory)
        self.dependency_dumps = {}  # directory -> dump, for the dependencies' `swift package dump-package`
        self.dumped = []
        original = check_manifest.dump_package

        def fake_dump(directory):
            self.dumped.append(directory)
            return self.dependency_dumps[os.path.realpath(directory)]
        check_manifest.dump_package = fake_dump
        self.addCleanup(setattr, check_manifest, "dump_package", original)

    def write(self, path, text="", root=None):
        path = os.path.join(root or self.directory, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as file:
            file.write(textwrap.dedent(text))

    def checkout(self, identity, products, targets):
        """A resolved dependency in .build/checkouts: its Package.swift and the dump it gives."""
        directory = os.path.join(self.directory, ".build", "checkouts", identity)
        self.write("Package.swift", "// " + identity, root=directory)
        self.dependency_dumps[os.path.realpath(directory)] = {
            "name": identity, "dependencies": [],
            "products": [{"name": name, "type": {"library": ["automatic"]}, "targets": members}
                         for name, members in products.items()],
            "targets": targets}

    def run_check(self, targets, dependencies=()):
        dump_path = os.path.join(self.directory, "dump.json")
        with open(dump_path, "w", encoding="utf-8") as file:
            json.dump({"name": "Fake", "targets": targets, "dependencies": list(dependencies), "products": []}, file)
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = check_manifest.main(["--dump", dump_path, self.directory])
        self.stderr = stderr.getvalue()
        return status, stdout.getvalue().splitlines()


class RuleTests(PackageTests):
    def test_a_package_that_matches_passes_with_a_summary(self):
        self.write("Sources/Core/Core.swift", "import Foundation\nimport Dispatch\nimport Synchronization\n")
        self.write("Sources/App/main.swift", "import Core\nimport Glibc\n")
        self.write("Tests/CoreTests/CoreTests.swift", "import Testing\nimport XCTest\n@testable import Core\n")
        status, lines = self.run_check([
            target("Core"), target("App", "executable", ["Core"]), target("CoreTests", "test", ["Core"])])
        self.assertEqual((status, len(lines)), (0, 1))
        self.assertIn("3 targets checked", lines[0])

    def test_an_undeclared_import_is_a_finding(self):
        self.write("Sources/Core/Core.swift", "")
        self.write("Sources/App/main.swift", "import Core\n")
        status, lines = self.run_check([target("Core"), target("App", "executable")])
        self.assertEqual((status, lines), (1, ["App: imports Core but does not declare it"]))

    def test_a_module_reached_only_transitively_is_undeclared(self):
        self.write("Sources/Base/Base.swift", "")
        self.write("Sources/Middle/Middle.swift", "import Base\n")
        self.write("Sources/Top/Top.swift", "import Middle\nimport Base\n")
        status, lines = self.run_check([target("Base"), target("Middle", dependencies=["Base"]),
                                        target("Top", dependencies=["Middle"])])
        self.assertEqual((status, lines), (1, ["Top: imports Base but does not declare it"]))

    def test_a_declared_dependency_never_imported_is_a_finding(self):
        self.write("Sources/Core/Core.swift", "")
        self.write("Sources/Unused/Unused.swift", "")
        self.write("Sources/App/main.swift", "import Core\n// import Unused\nlet s = \"\"\"\nimport Unused\n\"\"\"\n")
        status, lines = self.run_check([target("Core"), target("Unused"),
                                        target("App", "executable", ["Core", ("target", "Unused")])])
        self.assertEqual((status, lines), (1, ["App: declares Unused but never imports it"]))

    def test_both_findings_one_line_each_in_target_order(self):
        self.write("Sources/A/A.swift", "import B\n")
        self.write("Sources/B/B.swift", "")
        self.write("Sources/C/C.swift", "")
        status, lines = self.run_check([target("A", dependencies=["C"]), target("B"), target("C")])
        self.assertEqual((status, lines), (1, ["A: imports B but does not declare it",
                                               "A: declares C but never imports it"]))

    def test_toolchain_modules_need_no_declaration(self):
        modules = sorted(check_manifest.TOOLCHAIN_MODULES)
        self.write("Sources/Core/Core.swift", "".join(f"import {module}\n" for module in modules))
        status, _ = self.run_check([target("Core")])
        self.assertEqual(status, 0)
        for expected in ("Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin",
                         "Dispatch", "Synchronization", "_Concurrency", "Observation", "XCTest", "Testing",
                         "RegexBuilder", "Swift", "os"):
            self.assertIn(expected, check_manifest.TOOLCHAIN_MODULES)

    def test_system_library_targets_are_importable_but_not_checked(self):
        os.makedirs(os.path.join(self.directory, "Sources", "CLib"))
        self.write("Sources/CLib/module.modulemap", "module CLib { header \"shim.h\" link \"lib\" }\n")
        self.write("Sources/Wrapper/Wrapper.swift", "import CLib\n")
        status, lines = self.run_check([target("CLib", "system"), target("Wrapper", dependencies=["CLib"])])
        self.assertEqual(status, 0, lines)
        self.assertIn("1 targets checked", lines[0])

    def test_c_targets_without_swift_sources_are_skipped(self):
        self.write("Sources/CCounter/counter.c", "int counter;\n")
        self.write("Sources/CCounter/include/counter.h", "extern int counter;\n")
        self.write("Sources/Tool/main.swift", "import CCounter\n")
        status, lines = self.run_check([target("CCounter"), target("Tool", "executable", ["CCounter"])])
        self.assertEqual(status, 0, lines)
        self.assertIn("1 targets checked", lines[0])

    def test_executable_targets_are_imported_by_their_module_name(self):
        self.write("Sources/my-tool/main.swift", "")
        self.write("Tests/ToolTests/ToolTests.swift", "@testable import my_tool\n")
        status, lines = self.run_check([target("my-tool", "executable"), target("ToolTests", "test", ["my-tool"])])
        self.assertEqual(status, 0, lines)

    def test_path_sources_and_exclude_are_honoured(self):
        self.write("Sources/Core/Core.swift", "")
        self.write("Examples/demo/main.swift", "import Core\n")
        self.write("Examples/demo/Excluded/Old.swift", "import Missing\n")
        self.write("Custom/Lib/Listed.swift", "import Core\n")
        self.write("Custom/Lib/NotListed.swift", "import AlsoMissing\n")
        status, lines = self.run_check([
            target("Core"),
            target("demo", "executable", ["Core"], path="Examples/demo", exclude=["Excluded"]),
            target("Lib", dependencies=["Core"], path="Custom/Lib", sources=["Listed.swift"])])
        self.assertEqual(status, 0, lines)

    def test_a_target_without_its_directory_is_a_finding(self):
        status, lines = self.run_check([target("Ghost")])
        self.assertEqual(status, 1)
        self.assertEqual(lines, ["Ghost: no source directory found (path: None)"])

    def test_an_exception_silences_its_finding_only(self):
        self.write("Sources/Linker/Linker.swift", "")
        self.write("Sources/Other/Other.swift", "")
        self.write("Sources/App/main.swift", "")
        original = dict(check_manifest.EXCEPTIONS)
        self.addCleanup(lambda: (check_manifest.EXCEPTIONS.clear(), check_manifest.EXCEPTIONS.update(original)))
        check_manifest.EXCEPTIONS[("App", "declares", "Linker")] = "linked for its C library only"
        status, lines = self.run_check([target("Linker"), target("App", "executable", ["Linker", "Other"]),
                                        target("Other")])
        self.assertEqual((status, lines), (1, ["App: declares Other but never imports it"]))

    def test_several_packages_are_checked_in_turn_and_any_finding_fails(self):
        clean, drifted = (os.path.join(self.directory, name) for name in ("Clean", "Drifted"))
        self.write("Sources/Core/Core.swift", "", root=clean)
        self.write("Sources/Core/Core.swift", "import Foreign\n", root=drifted)
        for root in (clean, drifted):
            self.dependency_dumps[os.path.realpath(root)] = {
                "name": os.path.basename(root), "targets": [target("Core")], "dependencies": [], "products": []}
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(io.StringIO()):
            status = check_manifest.main([clean, drifted])
        self.assertEqual((status, stdout.getvalue().splitlines()), (1, [
            "check_manifest: Clean: 1 targets checked, every import declared and every dependency imported",
            "Core: imports Foreign but does not declare it"]))


class ProductTests(PackageTests):
    def test_a_product_maps_to_the_modules_of_its_targets(self):
        self.checkout("swift-thing", {"ThingProduct": ["ThingCore"]}, [target("ThingCore")])
        self.write("Sources/App/main.swift", "import ThingCore\n")
        status, lines = self.run_check([target("App", "executable", [("product", "ThingProduct", "swift-thing")])],
                                       [source_control("swift-thing")])
        self.assertEqual(status, 0, lines)
        self.assertEqual(self.stderr, "")

    def test_importing_the_product_name_that_is_no_module_is_undeclared(self):
        self.checkout("swift-thing", {"ThingProduct": ["ThingCore"]}, [target("ThingCore")])
        self.write("Sources/App/main.swift", "import ThingProduct\n")
        status, lines = self.run_check([target("App", "executable", [("product", "ThingProduct", "swift-thing")])],
                                       [source_control("swift-thing")])
        self.assertEqual((status, lines), (1, ["App: imports ThingProduct but does not declare it",
                                               "App: declares ThingProduct but never imports it"]))

    def test_a_product_of_several_modules_is_used_when_any_of_them_is_imported(self):
        self.checkout("swift-collections", {"Collections": ["Collections"], "DequeModule": ["DequeModule"],
                                            "HeapModule": ["HeapModule"]},
                      [target("Utilities"), target("DequeModule", dependencies=["Utilities"]),
                       target("HeapModule", dependencies=["Utilities"]),
                       target("Collections", dependencies=["DequeModule", "HeapModule"])])
        self.write("Sources/App/main.swift", "import DequeModule\n")
        status, lines = self.run_check([target("App", "executable", [("product", "Collections", "swift-collections")])],
                                       [source_control("swift-collections")])
        self.assertEqual(status, 0, lines)

    def test_a_module_is_credited_to_the_product_that_vends_it_as_its_own(self):
        self.checkout("swift-log", {"Logging": ["Logging"], "InMemoryLogging": ["InMemoryLogging"]},
                      [target("Logging"), target("InMemoryLogging", dependencies=["Logging"])])
        self.write("Sources/App/main.swift", "import Logging\n")
        status, lines = self.run_check([target("App", "executable", [("product", "Logging", "swift-log"),
                                                                     ("product", "InMemoryLogging", "swift-log")])],
                                       [source_control("swift-log")])
        self.assertEqual((status, lines), (1, ["App: declares InMemoryLogging but never imports it"]))

    def test_a_product_of_a_path_dependency_is_read_from_its_directory(self):
        other = os.path.join(self.directory, "Other")
        self.write("Package.swift", "// Other", root=other)
        self.dependency_dumps[os.path.realpath(other)] = {
            "name": "OtherName", "dependencies": [],
            "products": [{"name": "OtherLib", "type": {"library": ["automatic"]}, "targets": ["OtherCore"]}],
            "targets": [target("OtherCore")]}
        self.write("Sources/App/main.swift", "import OtherCore\n")
        path_dependency = {"fileSystem": [{"identity": "other", "path": other, "productFilter": None,
                                           "nameForTargetDependencyResolutionOnly": "OtherName"}]}
        status, lines = self.run_check([target("App", "executable", [("product", "OtherLib", "OtherName")])],
                                       [path_dependency])
        self.assertEqual(status, 0, lines)

    def test_a_missing_checkout_falls_back_to_the_product_name_and_says_so(self):
        self.write("Sources/App/main.swift", "import Thing\n")
        status, lines = self.run_check([target("App", "executable", [("product", "Thing", "swift-thing"),
                                                                     ("product", "Unused", "swift-thing")])],
                                       [source_control("swift-thing")])
        self.assertEqual((status, lines), (1, ["App: declares Unused but never imports it"]))
        self.assertIn("note: product Thing: no manifest of package swift-thing", self.stderr)
        self.assertIn("taken as module Thing", self.stderr)

    def test_module_aliases_rename_the_products_modules(self):
        self.checkout("swift-thing", {"Thing": ["Thing"]}, [target("Thing")])
        self.write("Sources/App/main.swift", "import AliasedThing\n")
        status, lines = self.run_check(
            [target("App", "executable", [("product", "Thing", "swift-thing", {"Thing": "AliasedThing"})])],
            [source_control("swift-thing")])
        self.assertEqual(status, 0, lines)

    def test_each_dependency_manifest_is_dumped_once_and_then_cached(self):
        self.checkout("swift-thing", {"Thing": ["Thing"]}, [target("Thing")])
        for name in ("A", "B"):
            self.write(f"Sources/{name}/{name}.swift", "import Thing\n")
        targets = [target(name, dependencies=[("product", "Thing", "swift-thing")]) for name in ("A", "B")]
        self.assertEqual(self.run_check(targets, [source_control("swift-thing")])[0], 0)
        self.assertEqual(len(self.dumped), 1)
        self.assertEqual(self.run_check(targets, [source_control("swift-thing")])[0], 0)
        self.assertEqual(len(self.dumped), 1)  # the second run read .build/check-manifest-cache


@unittest.skipUnless(shutil.which((shlex.split(os.environ.get("SWIFT") or "swift") or ["swift"])[-1]),
                     "needs swift for `swift package dump-package`")
class RealDumpTests(unittest.TestCase):
    """The shape of a real `swift package dump-package` (what the fakes above imitate)."""

    def test_a_real_package(self):
        directory = tempfile.mkdtemp(prefix="check-manifest-real-")
        self.addCleanup(shutil.rmtree, directory)
        files = {
            "Package.swift": """
                // swift-tools-version:6.0
                import PackageDescription
                let package = Package(name: "Real", targets: [
                    .systemLibrary(name: "CSys", path: "Sources/CSys"),
                    .target(name: "Core", dependencies: ["CSys"]),
                    .executableTarget(name: "real-tool", dependencies: [.target(name: "Core")]),
                    .testTarget(name: "CoreTests", dependencies: ["Core", "real-tool"]),
                ])
                """,
            "Sources/CSys/module.modulemap": "module CSys [system] { header \"shim.h\" }\n",
            "Sources/CSys/shim.h": "\n",
            "Sources/Core/Core.swift": "import CSys\n",
            "Sources/real-tool/main.swift": "import Core\nimport Unlisted\n",
            "Tests/CoreTests/CoreTests.swift": "import Testing\n@testable import real_tool\n",
        }
        for path, text in files.items():
            full = os.path.join(directory, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as file:
                file.write(textwrap.dedent(text).lstrip())
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_manifest.py")
        result = subprocess.run([sys.executable, script, directory], capture_output=True, text=True)
        self.assertEqual(result.stdout.splitlines(), ["real-tool: imports Unlisted but does not declare it",
                                                      "CoreTests: declares Core but never imports it"])
        self.assertEqual(result.returncode, 1, result.stderr)


if __name__ == "__main__":
    unittest.main()


class LayeringTests(unittest.TestCase):
    """This repository's layering rules (LAYERING), on dumps named KurentoSignaling."""

    @staticmethod
    def dump(targets, name="KurentoSignaling"):
        return {"name": name, "targets": targets}

    def test_the_layered_graph_passes(self):
        dump = self.dump([target("CLibWebSockets", "system"), target("WebSocketTransport", dependencies=["CLibWebSockets"]),
                          target("JSONRPC"), target("JSONRPCWebSocket", dependencies=["JSONRPC", "WebSocketTransport"]),
                          target("RoomProtocol", dependencies=["JSONRPC"])])
        self.assertEqual(check_manifest.layering_findings(dump), [])

    def test_a_core_library_that_reaches_a_c_library_is_a_finding_with_its_chain(self):
        dump = self.dump([target("CLibWebSockets", "system"), target("WebSocketTransport", dependencies=["CLibWebSockets"]),
                          target("JSONRPC", dependencies=["WebSocketTransport"]),
                          target("RoomProtocol", dependencies=["JSONRPC"])])
        self.assertEqual(check_manifest.layering_findings(dump), [
            "JSONRPC: reaches CLibWebSockets (JSONRPC -> WebSocketTransport -> CLibWebSockets), which it must not",
            "RoomProtocol: reaches CLibWebSockets (RoomProtocol -> JSONRPC -> WebSocketTransport -> CLibWebSockets), "
            "which it must not"])

    def test_an_optional_product_kept_out_of_the_server(self):
        dump = self.dump([target("CSQLite", "system"), target("SharedObjectSQLite", dependencies=["CSQLite"]),
                          target("RoomServer", dependencies=[("target", "SharedObjectSQLite")])])
        self.assertEqual(check_manifest.layering_findings(dump), [
            "RoomServer: reaches CSQLite (RoomServer -> SharedObjectSQLite -> CSQLite), which it must not",
            "RoomServer: reaches SharedObjectSQLite (RoomServer -> SharedObjectSQLite), which it must not"])

    def test_a_c_library_has_one_importer(self):
        dump = self.dump([target("CHiredis", "system"), target("RoomCluster", dependencies=["CHiredis"]),
                          target("Other", dependencies=["CHiredis"])])
        self.assertEqual(check_manifest.layering_findings(dump), ["Other: depends on CHiredis, which only RoomCluster may"])

    def test_other_packages_have_no_layering_rules(self):
        dump = self.dump([target("CLibWebSockets", "system"), target("JSONRPC", dependencies=["CLibWebSockets"])],
                         name="Elsewhere")
        self.assertEqual(check_manifest.layering_findings(dump), [])
