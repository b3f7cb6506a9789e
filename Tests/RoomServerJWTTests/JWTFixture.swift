import Foundation
import JSONRPC
import JSONRPCWebSocket
import RoomClient
import RoomServer
import RoomServerJWT
import TestSupport
import Testing

/// A RoomServer on 127.0.0.1 with a `RoomTokenAuthorizer` installed, the authorizer to mint tokens with, and tokens
/// made independently of jwt-kit (Python's hmac, hashlib and base64).
struct JWTFixture {
    /// 64 bytes of hex text, as `openssl rand -hex 32` makes.
    static let key = "5f2b9c0e7a14d6e3b8c1f0a29d4e7b6c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a"
    static var inAnHour: Date { Date().addingTimeInterval(3600) }
    static var anHourAgo: Date { Date().addingTimeInterval(-3600) }

    let server: RoomServer
    let tokens: RoomTokenAuthorizer

    static func start() async throws -> JWTFixture {
        let tokens = try await RoomTokenAuthorizer(hmacKey: Data(key.utf8))
        var configuration = RoomServer.Configuration()
        tokens.install(on: &configuration)
        return JWTFixture(server: try await RoomServer.start(configuration), tokens: tokens)
    }

    /// A token of `claims` signed with the fixture's key by jwt-kit.
    func token(_ user: String = "alice", room: String = "room1", roomJoin: Bool = true,
               expires: Date = JWTFixture.inAnHour, notBefore: Date? = nil) async throws -> String {
        try await tokens.token(for: .init(user: user, room: room, roomJoin: roomJoin, expires: expires,
                                          notBefore: notBefore))
    }

    /// A RoomClient that sends `token` as `Authorization: Bearer` and never reconnects; `url` defaults to the server's.
    func client(_ user: String = "alice", room: String = "room1", token: String?, url: String? = nil) -> RoomClient {
        RoomClient(room: Room(username: user, roomName: room, url: url ?? server.url),
                   configuration: .init(requestTimeout: .seconds(60), retries: 0, authToken: token, reconnect: .off))
    }

    /// What a client gets when the server answers the upgrade with HTTP `status` (before any handshake).
    static func refusedBeforeTheHandshake(_ status: Int) -> RPCError {
        let end = ConnectionEnd(code: UInt16(4000 + status), reason: "the server refused the upgrade with HTTP \(status)")
        return status == 401 ? .unauthorized(end) : .forbidden(end)
    }

    /// A JWT made by Python alone (json, base64, hmac, hashlib): `header` and `payload` as JSON objects, signed with
    /// HMAC-SHA256 and `key` unless the header's `alg` is `none` (then the signature is empty).
    static func pythonToken(header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String,
                            key: String = JWTFixture.key) throws -> String {
        let script = """
            import base64, hashlib, hmac, json, sys
            b64 = lambda d: base64.urlsafe_b64encode(d).rstrip(b"=").decode()
            header, payload, key = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3].encode()
            signed = b64(json.dumps(header).encode()) + "." + b64(json.dumps(payload).encode())
            mac = "" if header["alg"] == "none" else b64(hmac.new(key, signed.encode(), hashlib.sha256).digest())
            print(signed + "." + mac)
            """
        let (status, output) = try Python.run(["-c", script, header, payload, key])
        try #require(status == 0, "python3: \(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A LiveKit-style payload (with claims and grants this server ignores) as JSON text.
    static func livekitPayload(sub: String = "alice", room: String = "room1", roomJoin: Bool = true,
                               exp: Date = JWTFixture.inAnHour, nbf: Date = Date().addingTimeInterval(-60)) -> String {
        #"{"sub":"\#(sub)","iss":"APIKey","name":"Alice","nbf":\#(Int(nbf.timeIntervalSince1970)),"#
            + #""exp":\#(Int(exp.timeIntervalSince1970)),"video":{"room":"\#(room)","roomJoin":\#(roomJoin),"#
            + #""canPublish":true,"canSubscribe":true}}"#
    }

    /// One JSON-RPC request on a WebSocket of its own that sends `token` as `Authorization: Bearer`: the response.
    func rawCall(_ method: String, _ params: [String: String], token: String) async throws -> [String: Any] {
        let envelope: [String: Any] = ["jsonrpc": "2.0", "id": 1, "method": method, "params": params]
        let request = try JSONSerialization.data(withJSONObject: envelope)
        let configuration = WebSocketClientConfiguration().authorized(by: token), url = server.url
        let response = try await withDeadline(.seconds(20), method) {
            try await WebSocketConnection.withConnection(to: url, configuration: configuration) { inbound, out in
                try await out.send(text: String(decoding: request, as: UTF8.self))
                for try await message in inbound {
                    if case .text(let text) = message,
                       let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                       object["id"] as? Int == 1 {
                        return Optional(text)
                    }
                }
                return nil
            }
        }
        let text = try #require(response, "no response to \(method)")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
