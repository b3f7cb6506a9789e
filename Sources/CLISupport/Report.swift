public import JSONRPC

/// One thing a command-line tool (`room-join`, `tree-join`) reports on stdout: a readable line, or with `--json`
/// one JSON object whose `event` member names it (`Schemas/cli-events.schema.json`,
/// `Schemas/tree-cli-events.schema.json`).
public struct Report: Sendable {
    /// The `event` member.
    public var event: String
    /// The other members.
    public var fields: [String: JSONValue]
    /// The readable line; `nil` when the readable output says nothing for this report.
    public var text: String?

    /// Creates a report.
    public init(event: String, fields: [String: JSONValue] = [:], text: String? = nil) {
        self.event = event
        self.fields = fields
        self.text = text
    }

    /// The JSON object line.
    public var jsonLine: String {
        var object = fields
        object["event"] = .string(event)
        return JSONValue.object(object).jsonText
    }
}
