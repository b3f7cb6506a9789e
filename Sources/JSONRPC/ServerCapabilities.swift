/// What a server does beyond stock Kurento, as it says in its `connect` result
/// (`"capabilities": ["dedupe", "replay"]`, a member stock clients ignore; docs/wire-protocol.md#stock-kurento).
///
/// A client learns them when its session opens (``JSONRPCClient/Configuration/acknowledgesNotifications``: `RoomClient`
/// and `TreeClient`) or resumes, and picks the safe behaviour against a server that does not say them: a timed-out
/// request is not re-sent (``JSONRPCClient/Configuration/retries``), nor are in-flight requests after a resume
/// (``JSONRPCClient/Configuration/resendsOnResume``), and a room client resynchronizes instead of trusting a replay.
public struct ServerCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    /// A capability set.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A repeated request id is answered from the server's cache, not run again (docs/wire-protocol.md#dedupe).
    public static let dedupe = ServerCapabilities(rawValue: 1 << 0)
    /// A resumed session gets the notifications it missed (docs/architecture.md#server-sessions).
    public static let replay = ServerCapabilities(rawValue: 1 << 1)

    /// Every capability, with its wire name.
    static let named: [(name: String, capability: ServerCapabilities)] = [("dedupe", .dedupe), ("replay", .replay)]

    /// The capabilities a `connect` result lists; none for a stock server's result.
    public init(advertisedIn result: JSONValue?) {
        let names = Set(result?["capabilities"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        self = ServerCapabilities(Self.named.filter { names.contains($0.name) }.map(\.capability))
    }

    /// The wire form: the names, in a fixed order.
    public var advertised: JSONValue { .array(Self.named.filter { contains($0.capability) }.map { .string($0.name) }) }
}
