import JSONRPC

/// One thing `room-join` reports on stdout: a readable line, or with `--json` one JSON object whose `event` member
/// names it (`Schemas/cli-events.schema.json`).
struct Report {
    /// The `event` member.
    var event: String
    /// The other members.
    var fields: [String: JSONValue] = [:]
    /// The readable line; `nil` when the readable output says nothing for this report.
    var text: String?

    /// The JSON object line.
    var jsonLine: String {
        var object = fields
        object["event"] = .string(event)
        return JSONValue.object(object).jsonText
    }
}
