import RoomProtocol
import TestSupport
import Testing

/// The two-user session of docs/wire-protocol.md#room (`Fixtures/two-user-transcript.jsonl`), message by message.
@Suite struct TranscriptTests {
    @Test func everyResponseAnswersAnEarlierRequestOfItsSession() throws {
        // Given the transcript, when each message is classified (responses by their request's id)
        let transcript = try Transcript.load()
        let classified = try transcript.classified()
        // Then every line found its place, the error reply included
        #expect(classified.count == transcript.lines.count)
        #expect(classified.filter { $0.definition == "roomErrorResponse" }.count == 1)
    }

    @Test(.enabled(if: SchemaValidation.mustRun, "needs python3 with jsonschema (required when CI=true)"))
    func everyMessageValidatesAgainstItsDefinition() throws {
        for message in try Transcript.load().classified() {
            let verdict = try RoomSchema.verdict("transcript \(message.label)")
            #expect(verdict.valid, "\(message.label) as \(message.definition): \(verdict.errors)")
        }
    }

    @Test func everyMessageDecodesWithTheSwiftTypes() throws {
        for message in try Transcript.load().classified() {
            #expect(throws: Never.self, "\(message.label)") { try message.decode() }
        }
    }
}
