import Foundation
import JSONRPC
import SharedObjectSQLite
import SharedObjectServer
import SharedObjects
import Testing
import TestSupport

/// Persistent objects survive a server restart with the same SQLite file; non-persistent ones disappear with their
/// last client.
@Suite struct SharedObjectPersistenceTests {
    static func temporaryDatabase() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("shared-objects-\(UUID().uuidString).sqlite").path
    }

    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func aPersistentObjectSurvivesARestartAndANonPersistentOneDoesNot() async throws {
        let path = Self.temporaryDatabase()
        defer { Self.removeDatabase(path) }

        // Given a server with a SQLite store, a persistent and a non-persistent object, both changed
        let first = try await SharedObjectServerFixture.start(.init(store: try SQLiteSharedObjectStore(path: path)))
        let writer = SharedObjectPeer(url: first.url)
        let kept = try await writer.shared.connect("scores", persistent: true)
        let lost = try await writer.shared.connect("scratch", persistent: false)
        #expect(kept.isPersistent)
        #expect(!lost.isPersistent)
        try await kept.setProperties(["alice": 3, "bob": 5, "tags": ["a", "b"], "nested": ["x": 1.5]])
        let keptVersion = try await kept.setProperty("bob", 6)
        try await lost.setProperty("draft", "text")

        // When the server stops and a new one starts on the same file
        await writer.close()
        await first.shutdown()
        let second = try await SharedObjectServerFixture.start(.init(store: try SQLiteSharedObjectStore(path: path)))
        let reader = SharedObjectPeer(url: second.url)

        // Then the persistent object is back with its data and version, and the other one starts empty
        let scores = try await reader.shared.connect("scores")
        #expect(scores.isPersistent)
        #expect(scores.version == keptVersion)
        #expect(scores.data == ["alice": 3, "bob": 6, "tags": ["a", "b"], "nested": ["x": 1.5]])
        let scratch = try await reader.shared.connect("scratch")
        #expect(scratch.version == 0)
        #expect(scratch.data == [:])
        #expect(!scratch.isPersistent)
        await reader.close()
        await second.shutdown()
    }

    @Test func aNonPersistentObjectDisappearsWithItsLastClient() async throws {
        // Given two clients of a non-persistent object with data
        let server = try await SharedObjectServerFixture.start()
        let alice = SharedObjectPeer(url: server.url), bob = SharedObjectPeer(url: server.url)
        let aliceObject = try await alice.shared.connect("temp")
        let bobObject = try await bob.shared.connect("temp")
        try await aliceObject.setProperty("x", 1)

        // When one closes, the object stays; when the other's session ends, it is gone
        try await aliceObject.close()
        #expect(server.service.state(of: "temp")?.data == ["x": 1])
        _ = try await bob.rpc.call("closeSession")
        try await waitUntil("the object to disappear") { server.service.state(of: "temp") == nil }
        _ = bobObject

        // and a new client finds it empty
        let carol = SharedObjectPeer(url: server.url)
        #expect(try await carol.shared.connect("temp").data == [:])
        await alice.close()
        await bob.close()
        await carol.close()
        await server.shutdown()
    }

    @Test func theSQLiteStoreKeepsTheHighestVersion() async throws {
        let path = Self.temporaryDatabase()
        defer { Self.removeDatabase(path) }
        // Given a store holding version 5
        let store = try SQLiteSharedObjectStore(path: path)
        try await store.save(StoredSharedObject(name: "o", version: 5, data: ["v": 5]))
        // When an older save arrives late, and then a newer one
        try await store.save(StoredSharedObject(name: "o", version: 4, data: ["v": 4]))
        #expect(try await store.load("o") == StoredSharedObject(name: "o", version: 5, data: ["v": 5]))
        try await store.save(StoredSharedObject(name: "o", version: 6, data: ["v": "six", "s": "it's \"quoted\""]))
        // Then only versions above the stored one replace it
        #expect(try await store.load("o") == StoredSharedObject(name: "o", version: 6, data: ["v": "six", "s": "it's \"quoted\""]))
        #expect(try await store.names() == ["o"])
        try await store.delete("o")
        #expect(try await store.load("o") == nil)
    }

    @Test func aNewDatabaseAndItsJournalFilesAreForTheirOwnerOnly() async throws {
        let path = Self.temporaryDatabase()
        defer { Self.removeDatabase(path) }
        // Given a store on a new file, with an object written (so the write-ahead log and its index exist)
        let store = try SQLiteSharedObjectStore(path: path)
        try await store.save(StoredSharedObject(name: "o", version: 1, data: ["secret": "s"]))
        // Then the file, its -wal and its -shm are readable and writable by their owner only
        for file in [path, path + "-wal", path + "-shm"] {
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file): \(String(mode ?? 0, radix: 8))")
        }
    }

    @Test func anExistingDatabaseKeepsTheModeItsOwnerGaveIt() async throws {
        let path = Self.temporaryDatabase()
        defer { Self.removeDatabase(path) }
        // Given an empty file its owner made readable by the group
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
        // When a store opens it and writes
        let store = try SQLiteSharedObjectStore(path: path)
        try await store.save(StoredSharedObject(name: "o", version: 1, data: [:]))
        // Then its mode is left as it was
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
    }

    @Test func anUnopenableDatabaseIsAClearError() throws {
        #expect(throws: SQLiteError.self) { try SQLiteSharedObjectStore(path: "/nonexistent-dir/x/objects.sqlite") }
    }
}
