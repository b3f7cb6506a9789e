import ArgumentParser
import JSONRPC

/// How `room-join` recovers from a lost connection (DESIGN §5): reconnect and resume, or rejoin and renegotiate.
struct ReconnectOptions: ParsableArguments {
    @Option(help: "Seconds to keep reconnecting after the connection drops (the session is resumed, or the room rejoined and the media renegotiated); 0 exits at the first drop.")
    var reconnectFor: Double = 60

    func validate() throws {
        guard reconnectFor >= 0, reconnectFor.isFinite else {
            throw ValidationError("--reconnect-for must be a number of seconds, 0 or more")
        }
    }

    /// The reconnect policy these options make.
    var policy: JSONRPCClient.ReconnectPolicy {
        reconnectFor == 0 ? .off : .automatic(.init(budget: .milliseconds(Int((reconnectFor * 1000).rounded()))))
    }
}
