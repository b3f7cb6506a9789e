import ArgumentParser
import PeerManager

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
