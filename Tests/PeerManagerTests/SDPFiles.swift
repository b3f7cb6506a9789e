import Foundation
import SDP
import Testing

/// SDP files from the shared corpus and from the SDP tests' fixtures, read in place.
enum SDPFiles {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    static let corpus = packageRoot.appendingPathComponent("../shared/fixtures/sdp-transform").standardizedFileURL
    static let fixtures = packageRoot.appendingPathComponent("Tests/SDPTests/Fixtures")

    static var corpusShouldRun: Bool {
        FileManager.default.fileExists(atPath: corpus.path) || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    static func parse(_ url: URL) throws -> SessionDescription {
        try SessionDescription(parsing: try #require(String(data: Data(contentsOf: url), encoding: .utf8)))
    }

    static func corpusOffers() throws -> [(String, SessionDescription)] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".sdp") && $0 != "invalid.sdp" }
            .sorted().map { ($0, try parse(corpus.appendingPathComponent($0))) }
    }

    static func fixture(_ name: String) throws -> SessionDescription { try parse(fixtures.appendingPathComponent(name)) }
}
