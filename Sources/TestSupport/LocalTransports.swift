public import JSONRPC
import SignalingSupport

/// A transport whose connections are in-memory pairs (``LocalMessageConnection/pair()``): the client gets the near
/// end, `accept` the far end. It counts its connects, can refuse them like a closed port (``refusing``), and can end
/// the newest connection from the far side like a lost socket (``dropNewest()``).
public final class LocalTransport: MessageTransport {
    private let accept: @Sendable (LocalMessageConnection) -> Void
    private let state = LockedValue((refusing: false, attempts: 0, farEnds: [LocalMessageConnection]()))

    /// A transport that hands the far end of every connection to `accept`.
    public init(accept: @escaping @Sendable (LocalMessageConnection) -> Void) { self.accept = accept }

    /// Every connection served by `server`.
    public static func serving(_ server: JSONRPCServer) -> LocalTransport {
        LocalTransport { far in Task { await server.serve(far) } }
    }

    /// Whether a connect fails (1006, "connection refused") instead of opening a pair.
    public var refusing: Bool {
        get { state.withLock { $0.refusing } }
        set { state.withLock { $0.refusing = newValue } }
    }

    /// How many times ``connect()`` was called, refused ones included.
    public var attempts: Int { state.withLock { $0.attempts } }

    public func connect() async throws -> any MessageConnection {
        let refuse = state.withLock { s -> Bool in
            s.attempts += 1
            return s.refusing
        }
        if refuse { throw ConnectionEnd(code: 1006, reason: "connection refused") }
        let (near, far) = LocalMessageConnection.pair()
        state.withLock { $0.farEnds.append(far) }
        accept(far)
        return near
    }

    /// Ends the newest connection with 1006 from the far end, as a lost socket.
    public func dropNewest() async {
        await state.withLock { $0.farEnds.last }?.close(code: 1006, reason: "dropped")
    }
}

/// A transport that hands out one prepared connection, every time: a client talking to a scripted peer, or to a
/// connection that misbehaves on purpose.
public struct FixedTransport<Connection: MessageConnection>: MessageTransport {
    /// The connection every ``connect()`` returns.
    public let connection: Connection

    /// A transport handing out `connection`.
    public init(connection: Connection) { self.connection = connection }

    public func connect() async throws -> any MessageConnection { connection }
}
