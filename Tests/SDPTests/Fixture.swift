/// SDP written for this suite: RFC examples and browser-shaped offers and answers, in `Fixtures/` (read through
/// TestSupport's `SDPFiles.fixture(_:)`).
enum Fixture {
    static let names = [
        "rfc8866-example.sdp", "rfc8839-example.sdp", "chrome-offer.sdp", "chrome-answer.sdp", "firefox-offer.sdp",
        "firefox-answer.sdp", "kurento-ice-lite-answer.sdp",
    ]
}
