import Foundation
import TestSupport
import Testing

/// Issue 30 item 7 through the binaries: `tree-join --tree ID` (as stock KurentoTree.js, it names the tree) is refused
/// by a default `room-server`, and works against `room-server --allow-client-tree-ids`.
@Suite("room-server tree ids")
struct TreeIdsCLITests {
    /// The Tree URL of a `room-server` whose Room URL is `url`.
    static func treeURL(_ url: String) -> String { String(url.dropLast("room".count)) + "tree" }

    @Test("by default tree-join --tree gets Tree error 2 and exits 4; without --tree it runs on the server's id")
    func clientChosenIdsAreRefusedByDefault() async throws {
        let server = try await RoomServerProcess.start()
        let named = try ChildProcess("tree-join", [Self.treeURL(server.url), "--tree", "townhall", "--duration", "0.05"])
        #expect(try await named.exitStatus() == 4)
        #expect(await named.stderr.contains("tree ids are chosen by the server"))
        let unnamed = try ChildProcess("tree-join", [Self.treeURL(server.url), "--sinks", "1", "--duration", "0.05"])
        #expect(try await unnamed.exitStatus() == 0)
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("with --allow-client-tree-ids tree-join --tree creates that tree, and a viewer attaches to it")
    func clientChosenIdsWhereAllowed() async throws {
        let server = try await RoomServerProcess.start(["--allow-client-tree-ids"])
        let host = try ChildProcess("tree-join", [Self.treeURL(server.url), "--tree", "townhall", "--sinks", "0"])
        let hostSaid = try await lines(of: host) { $0.hasPrefix("source set on townhall") }
        #expect(hostSaid.contains("created tree townhall"), "\(hostSaid)")
        let viewer = try ChildProcess("tree-join", [Self.treeURL(server.url), "--tree", "townhall", "--viewer",
                                                    "--duration", "0.05"])
        #expect(try await viewer.exitStatus() == 0)
        host.send(SIGINT)
        #expect(try await host.exitStatus() == 130)
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }
}
