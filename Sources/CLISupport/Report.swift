public import Foundation
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
    /// When it happened: the `time` member, RFC 3339 in UTC with milliseconds (`2026-11-27T15:42:01.123Z`).
    public var time: Date

    /// Creates a report; `time` is now unless given.
    public init(event: String, fields: [String: JSONValue] = [:], text: String? = nil, time: Date = Date()) {
        self.event = event
        self.fields = fields
        self.text = text
        self.time = time
    }

    /// The JSON object line, its members in one order for every line: `event`, `time`, then the others by name
    /// (nested objects by name too), so that lines of one event type always read alike.
    public var jsonLine: String {
        var line = #"{"event":"# + JSONValue.string(event).jsonText
        line += #","time":"# + JSONValue.string(Self.timestamp.format(time)).jsonText
        for key in fields.keys.sorted() where key != "event" && key != "time" {
            line += "," + JSONValue.string(key).jsonText + ":" + fields[key]!.canonicalText
        }
        return line + "}"
    }

    /// RFC 3339 with milliseconds, in UTC.
    static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
