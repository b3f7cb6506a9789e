import Foundation
import JSONRPC
import SharedObjects
import Testing
import TestSupport

/// Issue 30 item 3 against the built `room-server`: nobody, joined or not, can fill the server with shared objects.
/// By default clients cannot create persistent objects; with `--allow-persistent-shared-objects` the server-wide
/// quotas bound them, in the SQLite file too, also across a restart; and memory stays bounded under the loop.
@Suite struct SharedObjectAbuseCLITests {
    @Test func byDefaultTheLoopCreatesNoPersistentObject() async throws {
        let path = SharedObjectAbuse.temporaryDatabase()
        defer { SharedObjectAbuse.removeDatabase(path) }

        // Given a room-server with its defaults and a SQLite file
        let (server, url) = try await SharedObjectCLITests.roomServer(["--shared-objects", path])

        // When four sessions that never joined a room run the loop with persistent objects
        let tally = try await SharedObjectAbuse.run(url: url, sessions: 4, iterations: 25, persistent: true, tag: "p")

        // Then every persistent connect is refused as not authorized, and so every set (not connected)
        #expect(tally.connected == 0, "\(tally)")
        #expect(tally.refusals[SharedObjectErrorCode.unauthorized.rawValue] == 100, "\(tally)")
        #expect(tally.stored == 0, "\(tally)")
        // and the file holds nothing
        server.send(SIGINT)
        #expect(try await server.exitStatus() == 0)
        let contents = try await SharedObjectAbuse.contents(ofDatabase: path)
        #expect(contents.objects == 0 && contents.bytes == 0, "\(contents)")
    }

    @Test func whereClientsMayCreatePersistentObjectsTheQuotasBoundTheFileAlsoAfterARestart() async throws {
        let path = SharedObjectAbuse.temporaryDatabase()
        defer { SharedObjectAbuse.removeDatabase(path) }
        let arguments = ["--shared-objects", path, "--allow-persistent-shared-objects",
                         "--max-shared-objects", "20", "--max-shared-object-bytes", "600000"]

        // Given a room-server that lets clients create persistent objects, 20 objects and 600,000 bytes at most
        let (server, url) = try await SharedObjectCLITests.roomServer(arguments)

        // When four sessions run the loop 25 times each
        let tally = try await SharedObjectAbuse.run(url: url, sessions: 4, iterations: 25, persistent: true, tag: "p")

        // Then 20 connects get in and the rest are refused with 1103; the sets stop at the byte quota with 1104
        #expect(tally.connected == 20, "\(tally)")
        #expect(tally.refusals[SharedObjectErrorCode.tooManyObjects.rawValue] == 80, "\(tally)")
        #expect(tally.stored == 9, "\(tally)")  // 9 × 60,011 bytes fit (with the 20 empty objects), a 10th does not
        #expect((tally.refusals[SharedObjectErrorCode.objectTooLarge.rawValue] ?? 0) == 11, "\(tally)")
        server.send(SIGINT)
        #expect(try await server.exitStatus() == 0)
        let contents = try await SharedObjectAbuse.contents(ofDatabase: path)
        #expect(contents.objects == 20 && contents.bytes <= 600_000, "\(contents)")

        // When the server restarts on the same file and the loop runs again
        let (restarted, newURL) = try await SharedObjectCLITests.roomServer(arguments)
        let again = try await SharedObjectAbuse.run(url: newURL, sessions: 2, iterations: 5, persistent: true, tag: "q")

        // Then the objects in the file still count: nothing more is created
        #expect(again.connected == 0, "\(again)")
        #expect(again.refusals[SharedObjectErrorCode.tooManyObjects.rawValue] == 10, "\(again)")
        restarted.send(SIGINT)
        #expect(try await restarted.exitStatus() == 0)
        #expect(try await SharedObjectAbuse.contents(ofDatabase: path).objects == 20)
    }

    @Test func theLoopDoesNotGrowTheServersMemory() async throws {
        // Given a room-server with its defaults (persistent objects in memory) that ends a session as soon as its
        // socket closes, warmed up by the same pattern (four sessions at once, each followed by another)
        let (server, url) = try await SharedObjectCLITests.roomServer(["--reconnection-window", "0"])
        _ = try await SharedObjectAbuse.run(url: url, sessions: 4, iterations: 10, persistent: false, tag: "warm",
                                            successors: 1)
        let before = try #require(server.peakResidentMemoryKiB)

        // When four sessions at a time, 100 in all, run the loop ten times each with persistent objects, then
        // with others
        _ = try await SharedObjectAbuse.run(url: url, sessions: 4, iterations: 10, persistent: true, tag: "p",
                                            successors: 24)
        _ = try await SharedObjectAbuse.run(url: url, sessions: 4, iterations: 10, persistent: false, tag: "n",
                                            successors: 24)
        let after = try #require(server.peakResidentMemoryKiB)

        // Then its peak resident memory grew by less than 32 MiB (the loop sets 2 × 1,000 × 60 KB, 120 MB)
        #expect(after - before < 32 * 1024, "peak RSS grew from \(before) KiB to \(after) KiB")
        server.send(SIGINT)
        #expect(try await server.exitStatus() == 0)
    }
}
