import SignalingSupport

/// A ``MessageTransport`` over several endpoints of one service (the nodes of a room-server cluster behind
/// different URLs): each ``connect()`` starts with the endpoint that last worked and tries every other one once,
/// in order, before it fails with the last error. A client that loses its node reconnects to the next one (its
/// session is then unknown there, and it resumes as after any lost session: a `RoomClient` rejoins).
public struct FailoverTransport: MessageTransport {
    /// The endpoints, in the order they are tried after the one that last worked.
    public let transports: [any MessageTransport]
    private let preferred = LockedValue(0)

    /// Fails over between `transports` (at least one).
    public init(_ transports: [any MessageTransport]) {
        precondition(!transports.isEmpty, "FailoverTransport needs at least one transport")
        self.transports = transports
    }

    /// Which endpoint the next ``connect()`` tries first (the one that last worked).
    public var current: Int { preferred.withLock { $0 } }

    /// Opens a connection to the first endpoint that takes one, starting with the one that last worked.
    public func connect() async throws -> any MessageConnection {
        let start = preferred.withLock { $0 }
        var lastError: (any Error)?
        for offset in 0..<transports.count {
            let index = (start + offset) % transports.count
            do {
                let connection = try await transports[index].connect()
                preferred.withLock { $0 = index }
                return connection
            } catch {
                lastError = error
                if Task.isCancelled { break }
            }
        }
        throw lastError!
    }
}
