import Foundation
import RoomProtocol
import TestSupport

/// A case label that is duplicated or unknown: a mistake in this test target.
struct CaseLabelError: Error, CustomStringConvertible {
    let label: String
    let problem: String
    var description: String { "schema case '\(label)' \(problem)" }
}

/// The Room schema and the one python run (docs/testing.md#witnesses) that checks every case of this test target: the
/// positive samples, the negative samples and the transcript, batched into a single JSONL on first use.
enum RoomSchema {
    static let path = "Schemas/room-protocol.schema.json"

    /// The `$defs` entry of a notification's envelope (the chat broadcast shares its name with a request).
    static func notificationDefinition(_ method: RoomNotificationMethod) -> String { "\(method.rawValue)Notification" }

    /// Every case of the target.
    static func allCases() throws -> [SchemaValidation.Case] {
        var cases: [SchemaValidation.Case] = []
        for sample in RoomSamples.encoded {
            cases.append(.init(label: "positive \(sample.label)", schema: path, ref: "#/$defs/\(sample.definition)",
                               instanceJSON: sample.text))
            cases.append(.init(label: "positive \(sample.label) as any message", schema: path,
                               instanceJSON: sample.text))
        }
        for sample in NegativeSample.all {
            cases.append(.init(label: "negative \(sample.label)", schema: path, ref: "#/$defs/\(sample.definition)",
                               instanceJSON: sample.envelope))
        }
        for message in try Transcript.load().classified() {
            cases.append(.init(label: "transcript \(message.label)", schema: path, ref: "#/$defs/\(message.definition)",
                               instanceJSON: message.text))
        }
        return cases
    }

    /// The verdicts of ``allCases()`` by label, computed once per test process.
    static let verdicts: Result<[String: SchemaValidation.Verdict], any Error> = Result {
        var byLabel: [String: SchemaValidation.Verdict] = [:]
        for verdict in try SchemaValidation.validate(try allCases()) {
            guard byLabel.updateValue(verdict, forKey: verdict.label) == nil else {
                throw CaseLabelError(label: verdict.label, problem: "is used twice")
            }
        }
        return byLabel
    }

    /// The verdict on the case labelled `label`.
    static func verdict(_ label: String) throws -> SchemaValidation.Verdict {
        guard let verdict = try verdicts.get()[label] else {
            throw CaseLabelError(label: label, problem: "has no verdict")
        }
        return verdict
    }
}
