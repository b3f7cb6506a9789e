/// The application's ``MediaBackend`` as the room and tree handlers call it.
///
/// Those handlers run on the connection's executor (``/JSONRPC/HandlerPlacement/connectionExecutor``: for WebSocket
/// connections the event loop's service thread, so a join or a chat message costs no thread hop). A backend is
/// application code that may block or compute (a real one talks to a media server), so every call moves to the
/// global concurrent executor first, and the handler comes back to the connection's executor when it returns.
struct OffLoopMediaBackend: MediaBackend {
    let backend: any MediaBackend

    func createPublisher(_ endpoint: MediaEndpointID, offer: String, loopback: Bool) async throws -> MediaAnswer {
        try await offLoop { try await backend.createPublisher(endpoint, offer: offer, loopback: loopback) }
    }

    func createSubscriber(_ endpoint: MediaEndpointID, offer: String) async throws -> MediaAnswer {
        try await offLoop { try await backend.createSubscriber(endpoint, offer: offer) }
    }

    func addCandidate(_ candidate: MediaCandidate, to endpoint: MediaEndpointID) async throws {
        try await offLoop { try await backend.addCandidate(candidate, to: endpoint) }
    }

    func release(_ endpoint: MediaEndpointID) async {
        await offLoop { await backend.release(endpoint) }
    }

    func release(scope: MediaScope) async {
        await offLoop { await backend.release(scope: scope) }
    }

    func attach(_ sink: MediaEventSink) { backend.attach(sink) }

    var notReadyReason: String? { backend.notReadyReason }

    func mediaServer(of scope: MediaScope) -> String? { backend.mediaServer(of: scope) }

    func shutdown() async {
        await offLoop { await backend.shutdown() }
    }
}

/// Runs `body`, application code, on the global concurrent executor, never on an event loop's service thread.
func offLoop<T: Sendable, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
    try await withTaskExecutorPreference(globalConcurrentExecutor, operation: body)
}
