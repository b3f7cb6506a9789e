/// A typed signaling client over a ``JSONRPCClient`` whose connection the application opens and closes
/// (`RoomClient`, `TreeClient`). Conforming brings the completion-closure faces of ``connect()`` and
/// ``disconnect()``; the client's own calls have theirs beside them.
public protocol SignalingClient: AnyObject, Sendable {
    /// Opens the connection, unless connected already.
    func connect() async throws
    /// Closes the connection (a user-initiated close); every pending call completes with an error.
    func disconnect() async
}

extension SignalingClient {
    /// Completion-closure face of ``connect()``: `completion` runs exactly once, on no particular thread.
    public func connect(completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.connect() }
    }

    /// Completion-closure face of ``disconnect()``: `completion` runs once the connection is closed, on no
    /// particular thread.
    public func disconnect(completion: @escaping @Sendable () -> Void) {
        Task {
            await disconnect()
            completion()
        }
    }
}
