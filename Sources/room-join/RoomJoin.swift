import CLISupport
import ArgumentParser
import Foundation
import JSONRPC
import RoomClient
import RoomProtocol

/// `room-join <ws-url> --room R --user U`: joins a Kurento room, prints the participants, waits for the
/// participants it was told to expect, acts (messages), then prints every event until the connection ends or
/// `--duration` has passed. The run itself is in `RoomJoin+Run.swift`.
@main
struct RoomJoin: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "room-join",
        abstract: "Join a Kurento room from a terminal and print what happens in it.",
        discussion: """
            Exit codes: 0 ok; 2 usage (also a user or room name the server would refuse); 3 cannot connect (also: \
            the URL serves Tree, not Room); 4 join refused (the room error code is printed, or the server's cluster \
            is unavailable); 5 protocol error, timeout (including --wait-timeout) or lost connection (a 1008 or 1009 \
            close is never reconnected); 6 evicted or room closed; 130 on SIGINT, 143 on SIGTERM. Every exit first \
            leaves the room and ends the session (closeSession); without a connection a signal exits at once, and a \
            second signal always does.

            Interactive mode (stdin is a terminal, or --interactive): each line typed is sent to the room as chat; \
            /who lists the participants and their streams (with --json one `participants` line); /msg USER TEXT \
            sends TEXT to USER only; /custom JSON sends a customRequest and prints its result; /set KEY VALUE sets \
            KEY on the first --shared-object; /leave, or the end of input (Ctrl-D), leaves the room (once your own \
            chat came back, at most 2 s) and exits 0. An unknown command is reported on stderr and the session goes \
            on. Stdin is read on a thread of its own. Lines are queued and sent paced under the request limit the \
            server advertises (20 a second when it says none), so piped input arrives whole; a line over the \
            server's chat limit is refused locally, and a line that cannot be sent is reported with its text.
            """
    )

    @Argument(help: ArgumentHelp(
        "The room server's WebSocket endpoint, e.g. ws://127.0.0.1:8443/room; more endpoints (the other nodes of a "
            + "room-server cluster) are tried in order when one does not take a connection, and the user rejoins "
            + "there.", valueName: "url"))
    var urls: [String] = []

    /// The first endpoint.
    var url: String { urls.first ?? "" }

    @Option(help: "The room to join (created on first join).")
    var room: String

    @Option(help: "Your user name (no '_').")
    var user: String

    @OptionGroup(title: "Connection")
    var connection: ConnectionOptions

    @OptionGroup(title: "Shared objects")
    var sharedObjects: SharedObjectOptions

    @Option(name: .customLong("wait-for"), help: ArgumentHelp("Act only once USER is in the room (repeatable).", valueName: "USER"))
    var waitFor: [String] = []

    @Option(help: ArgumentHelp("Act only once at least N other participants are in the room.", valueName: "N"))
    var expectPeers: Int?

    @Option(help: ArgumentHelp("Seconds to wait for --wait-for and --expect-peers before giving up (exit 5).", valueName: "S"))
    var waitTimeout: Double = 30

    @Option(help: ArgumentHelp("Send TEXT to the whole room once present (repeatable).", valueName: "TEXT"))
    var message: [String] = []

    @Option(name: .customLong("private"), help: ArgumentHelp("Send TEXT to USER only, as USER:TEXT (repeatable).", valueName: "USER:TEXT"))
    var privateMessages: [PrivateMessage] = []

    @Option(help: ArgumentHelp("Send a customRequest with the JSON object PARAMS once present, and print its result "
                               + "(repeatable).", valueName: "PARAMS"))
    var custom: [String] = []

    @Flag(help: "Print one JSON object per line (Schemas/cli-events.schema.json), each with an `event` member.")
    var json = false

    @Flag(help: "Publish a stream: an SDP offer from PeerManager (no real media is sent), the answer applied.")
    var publish = false

    @Option(help: ArgumentHelp("Subscribe to USER's stream, now or once it publishes (repeatable).", valueName: "USER"))
    var receive: [String] = []

    @Flag(help: "Subscribe to every participant's stream, including those who publish later.")
    var receiveAll = false

    @Flag(help: "Read chat lines and commands (\(RoomJoin.commandsHelp)) from stdin even when it is not a terminal.")
    var interactive = false

    @Option(help: ArgumentHelp("Stay S seconds after acting, then leave the room and exit 0 (default: until the connection ends).", valueName: "S"))
    var duration: Double?

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("Missing expected argument '<url>'") }
        for (name, value) in [("--wait-timeout", waitTimeout), ("--duration", duration ?? 1)] {
            guard value > 0, value.isFinite else { throw ValidationError("\(name) must be a positive number") }
        }
        guard (expectPeers ?? 0) >= 0 else { throw ValidationError("--expect-peers must not be negative") }
        try validateNames()
        for json in custom { _ = try Self.customParams(json) }
    }

    /// Parses and runs, with usage errors exiting 2 (not ArgumentParser's 64) as the exit codes promise.
    static func main() async { await mainExitingTwoOnUsageErrors() }
}
