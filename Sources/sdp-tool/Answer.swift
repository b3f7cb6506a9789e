import SignalingSupport
import ArgumentParser
import Foundation
import PeerManager
import SDP

/// `sdp-tool answer OFFER_FILE [--reject KIND] [--json]`.
struct Answer: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the answer the media-server side (ICE-lite) would give to an offer.",
        discussion: "Credentials and fingerprint are random unless --seed is given. The answer is checked before printing."
    )

    @Argument(help: "The offer file, or '-' for standard input.")
    var offer: String

    @Option(name: .customLong("reject"), help: "A media kind to reject with port 0 (repeatable), e.g. --reject video.")
    var rejectedKinds: [String] = []

    @Flag(help: "Print the answer's typed accessors as JSON (the inspect --json shape).")
    var json = false

    @Option(help: "Seed for credentials, fingerprint and session id (reproducible output).")
    var seed: UInt64?

    func run() throws {
        let offerDescription = try InputReader.parse(offer)
        var generator: any RandomNumberGenerator = seed.map { SeededRandomNumberGenerator(seed: $0) } ?? SystemRandomNumberGenerator()
        let credentials = IceCredentials.random(using: &generator)
        let fingerprint = Fingerprint.randomSHA256(using: &generator)
        let answer = AnswerBuilder.answer(
            to: offerDescription, policy: AnswerPolicy(rejectedKinds: Set(rejectedKinds)), credentials: credentials,
            fingerprint: fingerprint, sessionID: generator.next())
        if json {
            try Inspect.printJSON(SDPSummary(answer))
        } else {
            print(answer.serialized(normalizingToCRLF: true), terminator: "")
        }
    }
}

/// `sdp-tool check-answer OFFER ANSWER`.
struct CheckAnswer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-answer",
        abstract: "Report every offer/answer rule (RFC 3264, 9143, 5763, 8839, 8841) an answer breaks.",
        discussion: """
            Exits 0 when the answer is valid, 1 when any rule is broken or either file does not parse. For a \
            renegotiation, give the descriptions in force before it with --offerer-current and --answerer-current: \
            the ice-restart rule is then checked too.
            """
    )

    @Argument(help: "The offer file.")
    var offer: String

    @Argument(help: "The answer file, or '-' for standard input.")
    var answer: String

    @Option(help: "For a renegotiation: the offerer's current local description (the previous exchange's).")
    var offererCurrent: String?

    @Option(help: "For a renegotiation: the answerer's current local description (the previous exchange's).")
    var answererCurrent: String?

    func validate() throws {
        if (offererCurrent == nil) != (answererCurrent == nil) {
            throw ValidationError("--offerer-current and --answerer-current go together")
        }
    }

    func run() throws {
        var current: AnswerChecker.CurrentDescriptions?
        if let offererCurrent, let answererCurrent {
            current = .init(offerer: try InputReader.parse(offererCurrent), answerer: try InputReader.parse(answererCurrent))
        }
        let violations = AnswerChecker.violations(offer: try InputReader.parse(offer), answer: try InputReader.parse(answer),
                                                  current: current)
        if violations.isEmpty {
            print("ok: the answer satisfies every rule")
            return
        }
        for violation in violations { print(violation) }
        throw ExitCode(1)
    }
}
