import Foundation
import PeerManager
import SDP
import Testing
import TestSupport

/// Offers for the media tests: browser captures from the SDP fixtures, the sdp-transform corpus, and offers made
/// by PeerManager as a Kurento client makes them.
enum MediaOffers {
    static let fixtures = SchemaValidation.packageRoot.appendingPathComponent("Tests/SDPTests/Fixtures")
    static let corpus = SchemaValidation.packageRoot.appendingPathComponent("../shared/fixtures/sdp-transform")
        .standardizedFileURL

    static var corpusShouldRun: Bool { FileManager.default.fileExists(atPath: corpus.path) || isCI }

    /// The m-lines of `answer` that carry a transport, hence a server candidate: the tagged (first) m-line of each
    /// BUNDLE group, and every accepted m-line outside the groups (RFC 9143 §7.3).
    static func transports(of answer: SessionDescription) -> [Int] {
        let bundled = Set(answer.bundleGroups.flatMap(\.mids))
        let tagged = Set(answer.bundleGroups.compactMap(\.mids.first))
        return answer.media.indices.filter { index in
            let section = answer.media[index]
            return section.port != 0 && (section.mid.map { !bundled.contains($0) || tagged.contains($0) } ?? true)
        }
    }

    /// A browser capture from the SDP tests' fixtures.
    static func fixture(_ name: String) throws -> String {
        try String(decoding: Data(contentsOf: fixtures.appendingPathComponent(name)), as: UTF8.self)
    }

    /// Every valid offer of the sdp-transform corpus, by file name.
    static func corpusOffers() throws -> [(String, String)] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.path)
            .filter { $0.hasSuffix(".sdp") && $0 != "invalid.sdp" }.sorted()
            .map { ($0, String(decoding: try Data(contentsOf: corpus.appendingPathComponent($0)), as: UTF8.self)) }
    }

    /// An audio+video offer as a Kurento client makes it with PeerManager (opus, VP8/H264, BUNDLE, trickle).
    static func client(_ direction: MediaDirection) async throws -> String {
        try await PeerManager().generateOffer(for: "client", media: .audioVideo(direction: direction))
    }
}
