import ArgumentParser

/// `sdp-tool`: inspect session descriptions and ICE candidate lines.
@main
struct SDPTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdp-tool",
        abstract: "Inspect SDP session descriptions and ICE candidate lines.",
        discussion: """
            Examples:
              sdp-tool inspect offer.sdp
              pbpaste | sdp-tool inspect --json -
              sdp-tool candidate 'candidate:1 1 udp 2113929471 203.0.113.100 10100 typ host'
              sdp-tool answer offer.sdp --reject video
              sdp-tool check-answer offer.sdp answer.sdp

            Exit codes: 0 success, 1 invalid input (the message says 'line N: reason'), 64 usage error.
            """,
        subcommands: [Inspect.self, Candidate.self, Answer.self, CheckAnswer.self]
    )
}
