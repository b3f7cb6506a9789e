import TestSupport
import Testing

extension ChildProcess {
    /// `room-join`'s first line after its connection's opening, which it reports first, as it happened:
    /// "connection connecting", then "connection connected" (then, usually, `joined`).
    func lineAfterConnecting() async throws -> String? {
        #expect(try await nextLine() == "connection connecting")
        #expect(try await nextLine() == "connection connected")
        return try await nextLine()
    }
}
