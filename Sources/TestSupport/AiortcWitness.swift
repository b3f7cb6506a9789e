public import Foundation

/// aiortc (Python) as an independent witness of our SDP answers (docs/testing.md#witnesses):
/// `Tests/Witness/aiortc_offerer.py` makes an offer, the test answers it by the path it tests (AnswerBuilder, the
/// Kurento Media Server double, a RoomServer with either backend), and aiortc's own setRemoteDescription must accept
/// the answer. Tests of it skip without aiortc and fail under `CI=true` (``shouldRun``).
public enum AiortcWitness {
    /// The offerer script.
    public static let script = SchemaValidation.packageRoot.appendingPathComponent("Tests/Witness/aiortc_offerer.py")

    /// Whether a test of it runs: python3 imports aiortc, or this is CI (where its absence fails the test).
    public static var shouldRun: Bool { Python.missing("aiortc") == nil || isCI }

    /// The script ended without an offer (aiortc missing or failing; its stderr is in the test's log).
    public struct NoOffer: Error, CustomStringConvertible {
        public var description: String { "the aiortc witness printed no offer" }
    }

    /// aiortc offers `kinds` (`audio`, `video`, `data`), `answer` answers its offer, and aiortc applies that answer:
    /// its verdict, `accepted stable` when it accepted the answer, else `rejected: <its error>`. The dialogue blocks a
    /// thread while aiortc starts and decides, so it takes turns with the other tests that block
    /// (``BlockingGate/withTurn(_:)``).
    public static func verdict(offering kinds: [String], answer: (String) async throws -> String) async throws
        -> String
    {
        try await BlockingGate.withTurn {
            let witness = try PythonDialogue(script: script.path, arguments: kinds)
            guard let offer = witness.read(until: "END-OFFER") else { throw NoOffer() }
            return try witness.finish(with: try await answer(offer))
        }
    }
}
