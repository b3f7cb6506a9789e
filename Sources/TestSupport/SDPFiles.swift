public import Foundation
public import SDP

/// The SDP files the tests read in place: the shared sdp-transform corpus (`../shared/fixtures/sdp-transform`
/// beside the package, never copied into the repository: docs/testing.md#witnesses) and the browser captures in
/// `Tests/SDPTests/Fixtures`. The one place their paths are defined.
public enum SDPFiles {
    /// The shared sdp-transform corpus.
    public static let corpusDirectory = SchemaValidation.packageRoot
        .appendingPathComponent("../shared/fixtures/sdp-transform").standardizedFileURL

    /// The browser captures of the SDP tests (`chrome-offer.sdp`, `firefox-offer.sdp`, …).
    public static let fixturesDirectory = SchemaValidation.packageRoot.appendingPathComponent("Tests/SDPTests/Fixtures")

    /// Whether the corpus is present.
    public static var corpusIsAvailable: Bool { FileManager.default.fileExists(atPath: corpusDirectory.path) }

    /// Corpus tests run when the corpus is present, and also under `CI=true`, where a missing corpus fails them
    /// instead of skipping (docs/testing.md#witnesses).
    public static var corpusShouldRun: Bool { corpusIsAvailable || isCI }

    /// Every `.sdp` file name of the corpus, sorted.
    public static func corpusFileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path).filter { $0.hasSuffix(".sdp") }.sorted()
    }

    /// The valid corpus files: every file except the intentionally invalid `invalid.sdp`.
    public static func corpusValidFileNames() throws -> [String] { try corpusFileNames().filter { $0 != "invalid.sdp" } }

    /// The text of a corpus file.
    public static func corpusText(_ name: String) throws -> String {
        try text(corpusDirectory.appendingPathComponent(name))
    }

    /// A corpus file, parsed.
    public static func corpus(_ name: String) throws -> SessionDescription {
        try SessionDescription(parsing: corpusText(name))
    }

    /// Every valid corpus file, parsed, by file name.
    public static func corpusOffers() throws -> [(String, SessionDescription)] {
        try corpusValidFileNames().map { ($0, try corpus($0)) }
    }

    /// The text of a fixture.
    public static func fixtureText(_ name: String) throws -> String {
        try text(fixturesDirectory.appendingPathComponent(name))
    }

    /// A fixture, parsed.
    public static func fixture(_ name: String) throws -> SessionDescription {
        try SessionDescription(parsing: fixtureText(name))
    }

    /// A file's text, which must be UTF-8.
    static func text(_ url: URL) throws -> String {
        guard let text = String(data: try Data(contentsOf: url), encoding: .utf8) else {
            throw CocoaError(.fileReadInapplicableStringEncoding, userInfo: [NSFilePathErrorKey: url.path])
        }
        return text
    }
}
