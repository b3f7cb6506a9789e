import ArgumentParser
import CLISupport
import Foundation

/// `tree-join <ws-url>`: creates a Kurento tree, sets its source and attaches N sinks, each with an SDP
/// offer from PeerManager (no real media) and trickle ICE both ways; stays until `--duration` has passed or SIGINT,
/// then removes the sinks and the source and releases the tree. The run itself is in `TreeJoin+Run.swift`.
@main
struct TreeJoin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree-join",
        abstract: "Create a Kurento tree, set its source and attach sinks, from a terminal.",
        discussion: """
            Each sink is its own connection (a viewer); the source is the tree creator's. Offers come from \
            PeerManager and no real media is sent: each endpoint trickles one made-up host candidate on 127.0.0.1, \
            and the server's candidates are applied and printed. With --viewer, sinks are attached to the existing \
            --tree and nothing else is done to it.

            Exit codes: 0 ok; 2 usage; 3 cannot connect; 4 refused by the tree server (the Tree error code is \
            printed); 5 protocol error, timeout or lost connection; 130 on SIGINT and 143 on SIGTERM, after cleaning up \
            (the tree released, each session ended with closeSession; a second signal exits at once).
            """
    )

    @Argument(help: "The Tree endpoint, e.g. ws://127.0.0.1:8443/tree.")
    var url: String

    @Option(help: ArgumentHelp("The tree's id (default: the server generates one). Creating a tree of a chosen id "
                               + "needs a server that allows it (room-server --allow-client-tree-ids); a viewer's "
                               + "--tree names an existing tree.", valueName: "ID"))
    var tree: String?

    @Option(help: ArgumentHelp("How many sinks to attach, each on its own connection.", valueName: "N"))
    var sinks: Int = 1

    @Flag(help: "Only attach sinks to the existing --tree (no createTree, no source, no release).")
    var viewer = false

    @Option(help: ArgumentHelp("Stay S seconds once attached, then clean up and exit 0 (default: until SIGINT).", valueName: "S"))
    var duration: Double?

    @Flag(help: "Print one JSON object per line (Schemas/tree-cli-events.schema.json), each with an `event` member.")
    var json = false

    @OptionGroup(title: "Connection")
    var connection: ConnectionOptions

    func validate() throws {
        guard sinks >= 0 else { throw ValidationError("--sinks must not be negative") }
        guard !viewer || tree != nil else { throw ValidationError("--viewer needs --tree") }
        guard tree?.isEmpty != true else { throw ValidationError("--tree must not be empty") }
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a positive number")
        }
    }

    /// Parses and runs, with usage errors exiting 2 (not ArgumentParser's 64) as the exit codes promise.
    static func main() async { await mainExitingTwoOnUsageErrors() }
}
