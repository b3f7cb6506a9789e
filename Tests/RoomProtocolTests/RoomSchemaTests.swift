import Foundation
import JSONRPC
import RoomProtocol
import TestSupport
import Testing

/// `Schemas/room-protocol.schema.json` against the project's own encoders (positive samples) and against
/// hand-written broken messages (negative samples), through Python jsonschema (one process, ``RoomSchema``).
@Suite struct RoomSchemaTests {
    @Test func samplesCoverEveryMethodNotificationAndErrorCode() {
        #expect(Set(RoomSamples.requests.map(\.method)) == Set(RoomMethod.allCases))
        #expect(Set(RoomSamples.results.map(\.method)) == Set(RoomMethod.allCases))
        #expect(Set(RoomSamples.notifications.map(\.method)) == Set(RoomNotificationMethod.allCases))
        #expect(Set(RoomSamples.errors.map(\.code)) == Set(RoomErrorCode.allCases))
    }

    @Test func schemaDefinesAndReadmeIndexesEveryMessage() throws {
        let root = SchemaValidation.packageRoot
        let schemaText = try String(contentsOf: root.appendingPathComponent(RoomSchema.path), encoding: .utf8)
        let schema = try JSONValue(parsing: schemaText)
        let readme = try String(contentsOf: root.appendingPathComponent("Schemas/README.md"), encoding: .utf8)
        let definitions = RoomMethod.allCases.flatMap { ["\($0.rawValue)Request", "\($0.rawValue)Response"] }
            + RoomNotificationMethod.allCases.map(RoomSchema.notificationDefinition) + ["roomErrorResponse"]
        for definition in definitions {
            #expect(schema["$defs"]?[definition] != nil, "schema lacks $defs/\(definition)")
            let indexed = readme.contains("`\(definition)`") || readme.contains("$defs/\(definition)`")
            #expect(indexed, "README lacks \(definition)")
        }
    }

    @Test(.enabled(if: SchemaValidation.mustRun, "needs python3 with jsonschema (required when CI=true)"))
    func encodedSamplesMatchTheirDefinitionAndTheWholeSchema() throws {
        // Given every sample encoded by RoomProtocol and the JSONRPC envelopes (with Kurento's sessionId injection)
        for sample in RoomSamples.encoded {
            // Then its own definition accepts it, and so does the schema as a whole
            let own = try RoomSchema.verdict("positive \(sample.label)")
            #expect(own.valid, "\(sample.label) as \(sample.definition): \(own.errors) in \(sample.text)")
            let any = try RoomSchema.verdict("positive \(sample.label) as any message")
            #expect(any.valid, "\(sample.label) as any message: \(any.errors)")
        }
    }

    @Test(.enabled(if: SchemaValidation.mustRun, "needs python3 with jsonschema (required when CI=true)"),
          arguments: NegativeSample.all)
    func schemaRejectsNegativeSample(_ sample: NegativeSample) throws {
        let verdict = try RoomSchema.verdict("negative \(sample.label)")
        #expect(!verdict.valid, "the schema accepted \(sample.envelope)")
    }
}
