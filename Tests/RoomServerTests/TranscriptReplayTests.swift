import Foundation
import JSONRPC
import RoomServer
import Testing
import TestSupport

/// The two-user transcript of docs/wire-protocol.md#room (`Tests/RoomProtocolTests/Fixtures/two-user-transcript.jsonl`)
/// replayed over real WebSockets: each client line is sent verbatim, and each server line must match what arrives.
///
/// Values the transcript abbreviates or cannot know are matched by kind only: `sessionId` placeholders must map
/// to one real id each, and SDP, candidate lines, `sdpMid` and `sdpMLineIndex` only need the right JSON type.
/// Two adjustments, both marked in the fixture: lines noted "if …" describe something the transcript does not do
/// and are skipped, and the second bob's join is played while the first bob is still in the room (the transcript in
/// docs/wire-protocol.md#room shows only its reply, which is only true then).
@Suite struct TranscriptReplayTests {
    struct Line {
        var session: String
        var note: String?
        var message: JSONValue
    }

    static func transcript() throws -> [Line] {
        let url = SchemaValidation.packageRoot.appendingPathComponent("Tests/RoomProtocolTests/Fixtures/two-user-transcript.jsonl")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { text in
            let json = try JSONValue(parsing: String(text))
            return Line(session: json["session"]?.stringValue ?? "", note: json["note"]?.stringValue,
                        message: json["message"] ?? .null)
        }
        var played = lines.filter { !($0.note?.hasPrefix("if ") ?? false) && $0.session != "bob2" }
        let bobJoined = try #require(played.firstIndex { $0.session == "bob" && $0.message["result"]?["value"] != nil })
        played.insert(contentsOf: lines.filter { $0.session == "bob2" }, at: bobJoined + 1)
        return played
    }

    /// Whether `actual` matches the transcript's `expected`, binding sessionId placeholders in `sessions`.
    static func matches(_ actual: JSONValue, _ expected: JSONValue, key: String? = nil,
                        sessions: inout [String: String]) -> Bool {
        switch (key, expected) {
        case ("sessionId", .string(let placeholder)):
            guard let real = actual.stringValue else { return false }
            if let bound = sessions[placeholder] { return bound == real }
            guard !sessions.values.contains(real) else { return false }
            sessions[placeholder] = real
            return true
        case ("sdpAnswer", .string), ("candidate", .string), ("sdpMid", .string):
            return actual.stringValue != nil
        case ("sdpMLineIndex", .int):
            return actual.intValue != nil
        case (_, .object(let members)):
            guard let object = actual.objectValue, Set(object.keys) == Set(members.keys) else { return false }
            return members.allSatisfy { name, value in matches(object[name]!, value, key: name, sessions: &sessions) }
        case (_, .array(let items)):
            guard let array = actual.arrayValue, array.count == items.count else { return false }
            return zip(array, items).allSatisfy { matches($0, $1, sessions: &sessions) }
        default:
            return actual == expected
        }
    }

    @Test func theTwoUserTranscriptReplaysOverWebSockets() async throws {
        let server = try await RoomServer.start(.init(media: TestMediaBackend()))
        var peers: [String: RoomPeer] = [:]
        var sessions: [String: String] = [:]
        for line in try Self.transcript() {
            let peer: RoomPeer
            if let known = peers[line.session] {
                peer = known
            } else {
                peer = try await RoomPeer.dialing(server.url)
                peers[line.session] = peer
            }
            let message = line.message
            if let method = message["method"]?.stringValue {
                if message["id"] != nil {
                    try await peer.sendText(message.jsonText)
                } else {
                    let note = try await peer.notification()
                    #expect(note["method"]?.stringValue == method)
                    let ok = Self.matches(note["params"] ?? .null, message["params"] ?? .null, sessions: &sessions)
                    #expect(ok, "\(line.session) expected \(message.jsonText), got \(note.jsonText)")
                }
            } else {
                let id = try #require(message["id"]?.intValue)
                let reply = try await peer.response(id, skippingOthers: true)
                var expected = message
                var actual = reply
                expected = .object((expected.objectValue ?? [:]).filter { $0.key != "jsonrpc" })
                actual = .object((actual.objectValue ?? [:]).filter { $0.key != "jsonrpc" })
                let ok = Self.matches(actual, expected, sessions: &sessions)
                #expect(ok, "\(line.session) expected \(message.jsonText), got \(reply.jsonText)")
            }
        }
        // The server closed bob's socket after leaveRoom with 1000
        #expect(try await peers["bob"]?.end().code == 1000)
        #expect(sessions.count == 3)
        await server.shutdown()
    }
}
