import InMemoryLogging
import Logging
import RoomClient
import Testing

/// A client given an `http(s)://` URL (as the Kurento iOS toolbox documents room URLs) says in its log which
/// WebSocket URL it dials (docs/wire-protocol.md#stock-kurento).
@Suite struct HTTPSchemeNoticeTests {
    @Test(arguments: [("https://127.0.0.1:1/room", "wss://127.0.0.1:1/room"), ("http://h:2/room", "ws://h:2/room")])
    func anHTTPURLIsNotedWithTheWebSocketURLDialled(given: String, dialled: String) {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "notice-test", factory: { _ in handler })
        _ = RoomClient(room: Room(username: "alice", roomName: "r", url: given), configuration: .init(logger: logger))
        let notices = handler.entries.filter { $0.level == .notice }
        #expect(notices.map { "\($0.metadata["url"] ?? "")" } == [dialled])
    }

    @Test func aWebSocketURLIsNotNoted() {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "notice-test", factory: { _ in handler })
        _ = RoomClient(room: Room(username: "alice", roomName: "r", url: "ws://h:2/room"), configuration: .init(logger: logger))
        #expect(handler.entries.isEmpty)
    }
}
