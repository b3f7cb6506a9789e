import CSQLite
import Dispatch
import JSONRPC
public import SharedObjectServer

/// A ``/SharedObjectServer/SharedObjectStore`` in one SQLite file (the system's libsqlite3), so persistent shared
/// objects survive a restart: `room-server --shared-objects PATH`.
///
/// One table, `shared_objects(name PRIMARY KEY, version, data)`, with `data` as JSON text. A save keeps the
/// higher version (an upsert guarded by `version`), so saves that overtake each other never go back in time.
/// The database runs in WAL mode; every statement runs on the store's own serial queue, never on a cooperative
/// thread (docs/architecture.md#blocking-work: async code never blocks one).
public final class SQLiteSharedObjectStore: SharedObjectStore {
    private let connection: SQLiteConnection
    private let queue = DispatchQueue(label: "KurentoSignaling.SQLiteSharedObjectStore")

    /// Opens (creating if needed) the database at `path`. A new file, and its `-wal` and `-shm` files, are readable
    /// and writable by their owner only (0600); an existing file keeps its mode.
    /// - Throws: ``SQLiteError`` when the file cannot be opened or the table cannot be made.
    public init(path: String) throws {
        connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.execute("PRAGMA synchronous=NORMAL")
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS shared_objects (
                name TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL, data TEXT NOT NULL)
            """)
    }

    public func load(_ name: String) async throws -> StoredSharedObject? {
        let row = try await run { connection in
            try connection.queryRow("SELECT version, data FROM shared_objects WHERE name = ?", [.text(name)])
        }
        guard let row, row.count == 2, case .integer(let version) = row[0], case .text(let text) = row[1] else {
            return nil
        }
        guard case .object(let data) = try JSONValue(parsing: text) else {
            throw SQLiteError(code: SQLITE_CORRUPT, message: "shared object '\(name)' is stored as \(text.prefix(40))")
        }
        return StoredSharedObject(name: name, version: Int(version), data: data)
    }

    public func save(_ object: StoredSharedObject) async throws {
        let text = JSONValue.object(object.data).jsonText
        try await run { connection in
            try connection.execute("""
                INSERT INTO shared_objects (name, version, data) VALUES (?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET version = excluded.version, data = excluded.data
                WHERE excluded.version > shared_objects.version
                """, [.text(object.name), .integer(Int64(object.version)), .text(text)])
        }
    }

    public func delete(_ name: String) async throws {
        try await run { connection in try connection.execute("DELETE FROM shared_objects WHERE name = ?", [.text(name)]) }
    }

    /// The objects in the file and the bytes of their data's JSON text.
    public func usage() async throws -> SharedObjectUsage? {
        let row = try await run { connection in
            try connection.queryRow("SELECT count(*), coalesce(sum(length(CAST(data AS BLOB))), 0) FROM shared_objects", [])
        }
        guard let row, row.count == 2, case .integer(let objects) = row[0], case .integer(let bytes) = row[1] else {
            throw SQLiteError(code: SQLITE_ERROR, message: "cannot count the shared objects")
        }
        return SharedObjectUsage(objects: Int(objects), bytes: Int(bytes))
    }

    /// The names of the stored objects, sorted.
    public func names() async throws -> [String] {
        try await run { connection in
            try connection.queryRows("SELECT name FROM shared_objects ORDER BY name", []).compactMap { row in
                if case .text(let name)? = row.first { name } else { nil }
            }
        }
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let connection = self.connection
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(connection) }) }
        }
    }
}
