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
        var generator: any RandomNumberGenerator = seed.map { SplitMix64(state: $0) } ?? SystemRandomNumberGenerator()
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
        discussion: "Exits 0 when the answer is valid, 1 when any rule is broken or either file does not parse."
    )

    @Argument(help: "The offer file.")
    var offer: String

    @Argument(help: "The answer file, or '-' for standard input.")
    var answer: String

    func run() throws {
        let violations = AnswerChecker.violations(offer: try InputReader.parse(offer), answer: try InputReader.parse(answer))
        if violations.isEmpty {
            print("ok: the answer satisfies every rule")
            return
        }
        for violation in violations { print(violation) }
        throw ExitCode(1)
    }
}

/// A seedable generator for reproducible tool output (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
