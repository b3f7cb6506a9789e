import Foundation
import SDP
import Testing

/// SDP written for this suite: RFC examples and browser-shaped offers and answers, in `Fixtures/`.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let names = [
        "rfc8866-example.sdp", "rfc8839-example.sdp", "chrome-offer.sdp", "chrome-answer.sdp", "firefox-offer.sdp",
        "firefox-answer.sdp", "kurento-ice-lite-answer.sdp",
    ]

    static func text(_ name: String) throws -> String {
        try #require(String(data: Data(contentsOf: directory.appendingPathComponent(name)), encoding: .utf8))
    }

    static func parse(_ name: String) throws -> SessionDescription { try SessionDescription(parsing: text(name)) }
}
