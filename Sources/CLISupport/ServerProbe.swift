public import JSONRPC

/// What a command-line tool asks a server once connected (docs/wire-protocol.md#server-description): the service its
/// URL serves and its limits, within a short timeout of its own.
public enum ServerProbe {
    /// How long a tool waits for the description (each attempt): a server that does not answer `connect` delays
    /// the tool by this, whatever `--timeout` says.
    public static let timeout = Duration.seconds(2)

    /// The server's description; an empty one from a stock Kurento server (`stockKurento`: not asked) or from a
    /// server that does not answer.
    public static func describe(_ client: JSONRPCClient, stockKurento: Bool) async -> ServerDescription {
        guard !stockKurento, let described = try? await client.describeServer(timeout: timeout) else {
            return ServerDescription(connectResult: nil)
        }
        return described
    }
}
