import Foundation
import SDP
import Testing

/// The shared sdp-transform corpus, read in place from `../shared/fixtures/sdp-transform` relative to the
/// package root (docs/testing.md#witnesses: never copied into the repository).
enum Corpus {
    /// The package root: the folder holding Package.swift, found by walking up from this file.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    static let directory = packageRoot.appendingPathComponent("../shared/fixtures/sdp-transform").standardizedFileURL

    static var isAvailable: Bool { FileManager.default.fileExists(atPath: directory.path) }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Corpus tests run when the corpus is present, and also under `CI=true`, where a missing corpus fails
    /// them instead of skipping (docs/testing.md#witnesses).
    static var shouldRun: Bool { isAvailable || isCI }

    static let skipComment: Comment = "sdp-transform corpus not found at ../shared/fixtures/sdp-transform; skipped"

    /// Every `.sdp` file name, sorted.
    static func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sdp") }.sorted()
    }

    /// The valid files: every file except the intentionally invalid one.
    static func validFileNames() throws -> [String] { try fileNames().filter { $0 != "invalid.sdp" } }

    static func text(_ name: String) throws -> String {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return try #require(String(data: data, encoding: .utf8))
    }

    static func parse(_ name: String) throws -> SessionDescription {
        try SessionDescription(parsing: text(name))
    }
}
