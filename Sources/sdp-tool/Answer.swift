import ArgumentParser
import PeerManager
import SDP

/// `sdp-tool answer OFFER [--previous-offer FILE --previous-answer FILE] [--reject KIND] [--direction MID=DIR]...
/// [--seed N] [--json]`.
struct Answer: ParsableCommand, DescriptionMaking {
    static let configuration = CommandConfiguration(
        abstract: "Print the answer the media-server side (ICE-lite) would give to an offer.",
        discussion: """
            Credentials, fingerprint, session id and sources (a=msid, a=ssrc cname) are random unless --seed is \
            given. Sending sections carry a=msid and a=ssrc (with a=ssrc-group:FID where the section has RTX).

            For a renegotiation, give the previous exchange: --previous-offer is the peer's previous offer and \
            --previous-answer the answer this tool gave to it. The answer then keeps that answer's credentials \
            (new ones when the offer restarts ICE), fingerprint, DTLS role, sources and o= session id, with a \
            higher o= version.

            --direction MID=DIR limits what this side does in a section: the answered direction is the offered one \
            seen from this side, within DIR (RFC 3264 §6.1).

            The answer is checked (the check-answer rules, and the ice-restart rule in a renegotiation) before \
            printing; a broken one is reported on standard error and exits 1.
            """
    )

    @Argument(help: "The offer file, or '-' for standard input.")
    var offer: String

    @OptionGroup var previous: PreviousExchange

    @Option(name: .customLong("reject"), help: "A media kind to reject with port 0 (repeatable), e.g. --reject video.")
    var rejectedKinds: [String] = []

    @OptionGroup var directions: DirectionOptions

    @OptionGroup var output: OutputOptions

    func run() throws {
        try output.print(try make(seed: output.seed))
    }

    func make(using generator: inout some RandomNumberGenerator) throws -> SessionDescription {
        let offerDescription = try InputReader.parse(offer)
        // No answer can name a section of an offer that repeats a mid (RFC 5888 §4): refused, not copied.
        if let duplicate = offerDescription.duplicateMids.first { InputReader.fail("\(offer): \(Lint.sentence(duplicate))") }
        let previousExchange = try previous.descriptions()
        var session: LocalSession
        if let previousExchange {
            session = LocalSession(resuming: previousExchange.answer, using: &generator)
        } else {
            session = LocalSession(fingerprint: nil, using: &generator)
        }
        session.directions = directions.byMid
        let current = previousExchange.map { (local: $0.answer, remote: $0.offer) }
        let answer = session.answer(
            to: offerDescription, current: current, policy: AnswerPolicy(rejectedKinds: Set(rejectedKinds)),
            using: &generator)
        let violations = AnswerChecker.violations(
            offer: offerDescription, answer: answer,
            current: previousExchange.map { AnswerChecker.CurrentDescriptions(offerer: $0.offer, answerer: $0.answer) })
        guard violations.isEmpty else {
            InputReader.fail((["the answer made breaks a rule:"] + violations.map { "\($0)" }).joined(separator: "\n"))
        }
        return answer
    }
}
