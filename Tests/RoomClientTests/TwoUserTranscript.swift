import Foundation
import JSONRPC

/// The two-user session of docs/wire-protocol.md#room from `RoomProtocolTests/Fixtures/two-user-transcript.jsonl` (one
/// line per message: `{"session": who, "note"?: …, "message": …}`), with each message's raw text kept verbatim.
struct TwoUserTranscript {
    struct Line {
        let session: String
        /// The message exactly as the fixture spells it (key order included).
        let rawMessage: String
        let message: JSONValue
        /// Whether the client sends it (a request), rather than the server.
        var isClientRequest: Bool { message["method"] != nil && message["id"] != nil }
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../RoomProtocolTests/Fixtures/two-user-transcript.jsonl").standardized

    let lines: [Line]

    init() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        lines = try text.split(separator: "\n").map { raw in
            let entry = try JSONValue(parsing: String(raw))
            // "message" is each line's last member: its raw text runs from after the key to the closing brace.
            guard let session = entry["session"]?.stringValue, let message = entry["message"],
                  let key = raw.range(of: #""message":"#)
            else { throw ScriptedRoomPeer.ScriptError(description: "bad transcript line \(raw)") }
            let rawMessage = String(raw[key.upperBound..<raw.index(before: raw.endIndex)])
            return Line(session: session, rawMessage: rawMessage, message: message)
        }
    }

    /// The lines of one session, in order.
    func session(_ name: String) -> [Line] { lines.filter { $0.session == name } }
}

extension ScriptedRoomPeer {
    /// Plays the server side of `lines`: each client request must arrive with the transcript's id, method and
    /// params (a missing `dataChannels` counts as `false`); every other line is sent verbatim.
    func replay(_ lines: [TwoUserTranscript.Line]) async throws {
        func normalized(_ params: JSONValue?) -> JSONValue? {
            guard case .object(var members)? = params else { return params }
            if members["dataChannels"] == false { members["dataChannels"] = nil }
            return .object(members)
        }
        for line in lines {
            guard line.isClientRequest else {
                try await send(line.rawMessage)
                continue
            }
            let request = try await nextRequest()
            guard request.id == line.message["id"], request.method == line.message["method"]?.stringValue,
                  normalized(request.params) == normalized(line.message["params"])
            else { throw ScriptError(description: "expected \(line.rawMessage), got \(request)") }
        }
    }
}
