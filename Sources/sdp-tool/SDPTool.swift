import ArgumentParser
import CLISupport

/// `sdp-tool`: inspect session descriptions and ICE candidate lines.
@main
struct SDPTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdp-tool",
        abstract: "Inspect SDP session descriptions and ICE candidate lines; make and check offers and answers.",
        discussion: """
            Examples:
              sdp-tool inspect offer.sdp
              sdp-tool inspect --strict offer.sdp   # lint warnings are errors
              pbpaste | sdp-tool inspect --json -
              sdp-tool candidate 'candidate:1 1 udp 2113929471 203.0.113.100 10100 typ host'
              sdp-tool answer offer.sdp --reject video
              sdp-tool check-answer offer.sdp answer.sdp

            Renegotiation (each verb's help says which side the previous files belong to):
              sdp-tool offer --seed 1 > o1.sdp
              sdp-tool answer o1.sdp > a1.sdp
              sdp-tool offer --previous-offer o1.sdp --previous-answer a1.sdp --ice-restart > o2.sdp
              sdp-tool answer o2.sdp --previous-offer o1.sdp --previous-answer a1.sdp > a2.sdp
              sdp-tool check-answer o2.sdp a2.sdp --offerer-current o1.sdp --answerer-current a1.sdp
              sdp-tool offer --previous-offer o2.sdp --previous-answer a2.sdp --direction 1=inactive

            Exit codes: 0 success; 1 invalid input (the message says 'line N: reason'), a file that cannot be \
            read, a broken rule, or a lint finding with --strict; 2 usage error.
            """,
        subcommands: [Inspect.self, Candidate.self, Offer.self, Answer.self, CheckAnswer.self]
    )

    /// A usage error is one line on stderr and exit status 2, as for every tool of the package.
    static func main() async { await mainExitingTwoOnUsageErrors() }
}
