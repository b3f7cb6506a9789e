import CLISupport
import Foundation
import JSONRPC
import Testing

/// `--json` lines (issue 31 item 19): a timestamp on every line, and one order of members for every line of a type.
@Suite("--json report lines")
struct ReportLineTests {
    @Test("event, then an RFC 3339 time with milliseconds, then the other members by name, nested ones too")
    func oneOrderAndATimestamp() {
        let fields: [String: JSONValue] = ["user": "bob", "changed": ["size": 2, "color": "blue"], "name": "n"]
        let time = Date(timeIntervalSince1970: 1_795_793_721.25)

        // Whatever order the members were given in (a dictionary's order changes from process to process)
        let lines = (0..<20).map { _ in
            Report(event: "sharedObjectUpdate", fields: Dictionary(uniqueKeysWithValues: fields.shuffled()), time: time)
                .jsonLine
        }

        #expect(Set(lines).count == 1)
        #expect(lines[0] == #"{"event":"sharedObjectUpdate","time":"2026-11-27T15:35:21.250Z","changed":{"color":"blue","size":2},"name":"n","user":"bob"}"#)
    }
}
