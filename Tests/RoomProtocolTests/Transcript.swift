import Foundation
import JSONRPC
import RoomProtocol

/// The two-user session of docs/wire-protocol.md#room, transcribed into `Fixtures/two-user-transcript.jsonl`: one line
/// per message, `{"session": who, "message": …, "note"?: …}`. Ids are per session, so responses match requests by
/// (session, id).
struct Transcript: Sendable {
    struct Line: Sendable {
        let number: Int
        let session: String
        let message: JSONValue
    }

    /// One message with the schema definition it must match and the Swift decoding it must pass.
    struct Classified: Sendable {
        let label: String
        let definition: String
        let text: String
        let decode: @Sendable () throws -> Void
    }

    /// A transcript line the test cannot place: a mistake in the fixture or an unmatched response.
    struct Unplaceable: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "transcript line \(line): \(reason)" }
    }

    let lines: [Line]

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/two-user-transcript.jsonl")

    static func load() throws -> Transcript {
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = try text.split(separator: "\n").enumerated().map { index, raw in
            let entry = try JSONValue(parsing: String(raw))
            guard let session = entry["session"]?.stringValue, let message = entry["message"] else {
                throw Unplaceable(line: index + 1, reason: "needs a session and a message")
            }
            return Line(number: index + 1, session: session, message: message)
        }
        return Transcript(lines: lines)
    }

    /// Each message classified by its envelope; responses take the method of the request with their id in their
    /// session (which the transcript must contain before them).
    func classified() throws -> [Classified] {
        var pending: [String: RoomMethod] = [:]
        return try lines.map { line in
            let text = line.message.jsonText
            guard case .single(.success(let message)) = RPCCodec.decode(text) else {
                throw Unplaceable(line: line.number, reason: "not a JSON-RPC message")
            }
            let label = "line \(line.number) (\(line.session))"
            switch message {
            case .request(let request):
                guard let method = RoomMethod(rawValue: request.method) else {
                    throw Unplaceable(line: line.number, reason: "unknown method \(request.method)")
                }
                pending["\(line.session)/\(request.id)"] = method
                let params = request.params
                return Classified(label: "\(label) \(method) request", definition: "\(method.rawValue)Request",
                                  text: text) { _ = try RoomRequest(method: method, params: params) }
            case .notification(let notification):
                guard let method = RoomNotificationMethod(rawValue: notification.method) else {
                    throw Unplaceable(line: line.number, reason: "unknown notification \(notification.method)")
                }
                let params = notification.params
                return Classified(label: "\(label) \(method) notification",
                                  definition: RoomSchema.notificationDefinition(method),
                                  text: text) { _ = try RoomNotification(method: method, params: params) }
            case .response(let response):
                guard let method = pending.removeValue(forKey: "\(line.session)/\(response.id)") else {
                    throw Unplaceable(line: line.number,
                                      reason: "response \(response.id) matches no request of \(line.session)")
                }
                switch response.outcome {
                case .success(let result):
                    return Classified(label: "\(label) \(method) response", definition: "\(method.rawValue)Response",
                                      text: text) { _ = try RoomResult(method: method, result: result) }
                case .failure(let error):
                    return Classified(label: "\(label) \(method) error", definition: "roomErrorResponse", text: text) {
                        guard RoomError(error) != nil else {
                            throw Unplaceable(line: line.number, reason: "\(error) is not a Room error")
                        }
                    }
                }
            }
        }
    }
}
