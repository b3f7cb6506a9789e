import Foundation
import Testing

/// What a new user reads before depending on the package (issue 31, item 22): README's `.package(url: …)` snippet
/// names every library product of Package.swift, its exit-code table every executable, and Schemas/README.md every
/// event of the CLIs' `--json` schemas.
@Suite struct PackageDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The names of Package.swift's products of one kind (`library` or `executable`).
    static func products(_ kind: String) throws -> [String] {
        try text("Package.swift").split(separator: "\n").compactMap { line in
            guard let start = line.range(of: ".\(kind)(name: \"") else { return nil }
            return line[start.upperBound...].split(separator: "\"").first.map(String.init)
        }
    }

    /// README's section that starts at the heading `title`, up to the next heading of its level or above.
    static func readmeSection(_ title: String) throws -> String {
        let readme = try text("README.md")
        let start = try #require(readme.range(of: "\n\(title)\n"))
        let level = title.prefix { $0 == "#" }
        let rest = readme[start.upperBound...]
        let end = rest.range(of: "\n\(level) ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func theReadmeShowsHowToDependOnEveryLibrary() throws {
        let section = try Self.readmeSection("## Using the package")
        #expect(section.contains(".package(url: \""), "\(section)")
        let libraries = try Self.products("library")
        #expect(libraries.count >= 10)
        for library in libraries {
            #expect(section.contains(".product(name: \"\(library)\", package: \"KurentoSignaling\")")
                    || section.contains("`\(library)`"), "README's 'Using the package' does not name \(library)")
        }
    }

    @Test func theExitCodeTableNamesEveryExecutable() throws {
        let table = try Self.readmeSection("### Exit codes")
        for executable in try Self.products("executable") {
            #expect(table.contains("`\(executable)`"), "README's exit-code table does not name \(executable)")
        }
    }

    @Test(arguments: [("cli-events.schema.json", "room-join --json"), ("tree-cli-events.schema.json", "tree-join --json")])
    func schemasReadmeListsEveryEventOfTheCLISchemas(_ schema: String, _ tool: String) throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(try Self.text("Schemas/\(schema)").utf8)) as? [String: Any])
        let definitions = try #require(document["$defs"] as? [String: Any])
        let events = try #require(document["oneOf"] as? [[String: String]]).compactMap { reference -> String? in
            let name = reference["$ref"]?.split(separator: "/").last.map(String.init) ?? ""
            let event = ((definitions[name] as? [String: Any])?["properties"] as? [String: Any])?["event"]
            return (event as? [String: Any])?["const"] as? String
        }
        #expect(events.count >= 9)
        let bullet = try #require(try Self.text("Schemas/README.md").split(separator: "\n")
            .first { $0.hasPrefix("- `\(schema)`") })
        let words = Set(bullet.split { !$0.isLetter && !$0.isNumber }.map(String.init))
        for event in events { #expect(words.contains(event), "Schemas/README.md's \(schema) line does not list \(event)") }
        #expect(bullet.contains(tool))
    }
}
