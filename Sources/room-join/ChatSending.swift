import ArgumentParser
import CLISupport
import Foundation
import JSONRPC
import JSONRPCWebSocket
import RoomClient
import Synchronization

/// How `room-join` sends chat: paced under the server's request limit, so that piped input arrives whole; a line
/// over the server's size limit refused locally; a line the server still refuses as "rate limited" sent again after
/// a pause; a line that cannot be sent reported with its text.
extension RoomJoin {
    /// The pace against a server that does not advertise its request limit (a stock Kurento server has none).
    static let defaultRequestsPerSecond = 20.0
    /// The share of an advertised request limit `room-join` uses: a margin for requests bunched in transit.
    static let paceMargin = 0.9
    /// Attempts of one line while the server answers -32000 "rate limited", a second apart.
    static let rateLimitedAttempts = 5
    /// Bytes of a request around its chat text (method, ids, names), kept free under the frame limit.
    static let envelopeBytes = 1024
    /// What the server said about itself once connected (docs/wire-protocol.md#server-description).
    static let server = Mutex(ServerDescription(connectResult: nil))

    /// Asks the server what it is (not a stock Kurento server: `--stock-kurento`) and paces the requests under its
    /// limit, or at ``defaultRequestsPerSecond`` when it does not say. A server that says it serves another service
    /// on this URL (Tree) ends the run: exit 3.
    func learnServer(_ client: RoomClient) async throws {
        let rpc = client.jsonRPCClient
        let description = await ServerProbe.describe(rpc, stockKurento: connection.stockKurento)
        if let service = description.service, service != "room" {
            output.error("cannot join at \(url): \(Problem.wrongService(service, expected: "room"))")
            await client.disconnect()
            throw ExitCode(3)
        }
        Self.server.withLock { $0 = description }
        rpc.paceRequests(perSecond: description.requestsPerSecond.map { Double($0) * Self.paceMargin }
                         ?? Self.defaultRequestsPerSecond)
    }

    /// Sends `text` to the room, or to `user` only; reports a line that cannot be sent and goes on.
    func sendChat(_ text: String, to user: String? = nil, _ client: RoomClient) async {
        let target = user.map { " to \($0)" } ?? ""
        if refusedLocally(text, to: user) { return }
        for attempt in 1...Self.rateLimitedAttempts {
            do {
                if let user { try await client.sendPrivateMessage(text, to: user) } else { try await client.sendMessage(text) }
                return
            } catch let error as RPCError where error.isRateLimited && attempt < Self.rateLimitedAttempts {
                try? await Task.sleep(for: .seconds(1))
            } catch {
                output.error("cannot send \(Self.quoted(text))\(target): \(Problem.describe(error))")
                return
            }
        }
    }

    /// Whether `text` (to `user`, or to the room) is over the server's limit: then it is reported and not sent, and
    /// the session goes on (a message over the frame limit would end the session with 1009).
    func refusedLocally(_ text: String, to user: String? = nil) -> Bool {
        guard let problem = Self.oversize(text) else { return false }
        output.error("cannot send \(Self.quoted(text))\(user.map { " to \($0)" } ?? ""): \(problem)")
        return true
    }

    /// Why `text` is too large to send, or `nil`: the server's chat limit when it says one, else its (or the
    /// client's) frame limit less the request around the text.
    static func oversize(_ text: String) -> String? {
        let server = server.withLock { $0 }
        let bytes = text.utf8.count
        if let limit = server.limit("maxChatMessageBytes") {
            return bytes > limit ? Problem.tooLarge(bytes, limit: limit) : nil
        }
        let frame = server.maxMessageBytes ?? ConnectionLimits().maxMessageSize
        let limit = frame - envelopeBytes
        // JSON escapes (a quote, a control character) make the frame larger than the text.
        let encoded = JSONValue.string(text).jsonText.utf8.count
        return max(bytes, encoded) > limit ? Problem.tooLarge(bytes, limit: limit) : nil
    }

    /// `text` as a report names it: quoted, its first 40 characters.
    static func quoted(_ text: String) -> String {
        text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
    }
}
