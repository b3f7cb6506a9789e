import Testing
import TestSupport

/// `Examples/shared-color-sync`, run as docs/shared-objects.md shows: alice sets the colour three times and every client,
/// alice included, follows in version order until all three agree.
@Suite struct SharedColorSyncExampleTests {
    @Test func theOthersFollowTheColourAndAllAgree() async throws {
        let example = try ChildProcess("shared-color-sync", [])
        let first = try #require(try await example.nextLine())
        #expect(first.hasPrefix("server: ws://127.0.0.1:"))
        var lines: [String] = []
        while let line = try await example.nextLine() { lines.append(line) }
        #expect(try await example.exitStatus() == 0)

        #expect(lines.prefix(3) == [
            "alice connected at version 0: color = none",
            "bob connected at version 0: color = none",
            "carol connected at version 0: color = none",
        ])
        for (version, color) in [(1, "red"), (2, "green"), (3, "blue")] {
            for user in ["alice", "bob", "carol"] {
                #expect(lines.contains("\(user) sees color = \"\(color)\" (version \(version))"))
            }
            #expect(lines.contains("alice set color = \(color): version \(version)"))
        }
        // Each client saw the colours in version order
        for user in ["alice", "bob", "carol"] {
            let seen = lines.filter { $0.hasPrefix("\(user) sees") }
            #expect(seen == ["red", "green", "blue"].enumerated().map { "\(user) sees color = \"\($1)\" (version \($0 + 1))" })
        }
        #expect(lines.last == #"all three agree: color = "blue" at version 3"#)
    }
}
