import Foundation
import Testing
import TestSupport

/// The cluster is an optional product, as SQLite is (docs/architecture.md#modules): the `RoomServer` library reaches
/// neither `RoomCluster` nor hiredis through any of its dependencies, so an embedder without a cluster never links
/// them. Read from the manifest as SwiftPM evaluates it (`swift package dump-package`).
struct RoomServerDependencyTests {
    @Test func roomServerReachesNeitherRoomClusterNorHiredis() async throws {
        // Given the targets of the manifest and what each depends on
        let targets = try await Self.manifestDependencies()
        #expect(targets["RoomServer"] != nil)

        // When following RoomServer's dependencies to the end
        let reached = Self.reachable(from: "RoomServer", in: targets)

        // Then neither the Redis cluster nor its C library is among them; the cluster's protocol is
        #expect(!reached.contains("RoomCluster"))
        #expect(!reached.contains("CHiredis"))
        #expect(reached.contains("RoomClusterCore"))
        #expect(Self.reachable(from: "RoomCluster", in: targets).contains("CHiredis"))
    }

    /// Every target of this package's manifest and the names of the targets and products it depends on.
    static func manifestDependencies() async throws -> [String: [String]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        // A scratch path of its own: SwiftPM locks the one a running `swift test` holds.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let swift = try ChildProcess(executable: URL(fileURLWithPath: "/usr/bin/env"), [
            "swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package",
        ])
        let status = try await swift.exitStatus(within: .seconds(120) * deadlineScale)
        let text = await swift.remainingLines().joined(separator: "\n"), errors = await swift.stderr
        try #require(status == 0, "swift package dump-package: \(errors)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var dependencies: [String: [String]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            // Each dependency is {"byName"|"target"|"product": [name, …]}.
            dependencies[name] = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
            }
        }
        return dependencies
    }

    /// `start` and every target or product it reaches through `dependencies`.
    static func reachable(from start: String, in dependencies: [String: [String]]) -> Set<String> {
        var reached: Set<String> = [start], pending = [start]
        while let next = pending.popLast() {
            for dependency in dependencies[next] ?? [] where reached.insert(dependency).inserted {
                pending.append(dependency)
            }
        }
        return reached
    }
}
