import JSONRPC
import RoomClient

/// A ``RoomClient`` for `username` in `room1`, wired to a ``ScriptedRoomPeer``, with its events recorded from the
/// start.
struct RoomFixture {
    let peer = ScriptedRoomPeer()
    let client: RoomClient
    let recorder: EventRecorder

    /// Long timeouts and no retries: the tests wait on events, and a loaded machine must not time calls out.
    static let patient = RoomClient.Configuration(requestTimeout: .seconds(120), retries: 0, reconnect: .off, heartbeat: .off)

    init(username: String = "alice", configuration: RoomClient.Configuration = patient) {
        client = RoomClient(room: Room(username: username, roomName: "room1", url: "ws://scripted/room"),
                            transport: peer, configuration: configuration)
        recorder = EventRecorder(client)
    }

    /// Joins; the scripted server answers with `participants` (raw JSON of the `value` list), Kurento style.
    @discardableResult
    func join(participants: String = "[]") async throws -> [Peer] {
        async let peers = client.join()
        let request = try await peer.expectRequest("joinRoom")
        try await peer.reply(to: request, result: #"{"value":\#(participants),"sessionId":"sid"}"#)
        return try await peers
    }

    /// Runs `call` while the scripted server answers the `method` request with `result` (raw JSON), and returns
    /// what the call returned along with the request the server saw.
    func serve<T: Sendable>(
        _ method: String, result: String, _ call: @escaping @Sendable (RoomClient) async throws -> T
    ) async throws -> (T, ScriptedRoomPeer.Request) {
        async let value = call(client)
        let request = try await peer.expectRequest(method)
        try await peer.reply(to: request, result: result)
        return (try await value, request)
    }

    /// Runs `call` while the scripted server answers the `method` request with the error object `error`.
    func fail(_ method: String, error: String, _ call: @escaping @Sendable (RoomClient) async throws -> Void)
        async throws -> any Error
    {
        async let outcome: Result<Void, any Error> = { do { try await call(client); return .success(()) } catch {
            return .failure(error) } }()
        let request = try await peer.expectRequest(method)
        try await peer.reply(to: request, error: error)
        guard case .failure(let failure) = await outcome else {
            throw ScriptedRoomPeer.ScriptError(description: "\(method) succeeded despite \(error)")
        }
        return failure
    }
}
