import CSQLite
import Glibc

/// One value bound to or read from a statement.
enum SQLiteValue: Sendable, Hashable {
    case integer(Int64)
    case text(String)
    case null
}

/// A thin wrapper over one `sqlite3*`. Not thread-safe by itself: ``SQLiteSharedObjectStore`` only touches it
/// from its serial queue, which is what makes the `@unchecked Sendable` below true.
final class SQLiteConnection: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Opens `path`, creating it first, readable and writable by its owner only (0600), when it does not exist:
    /// SQLite would make it 0644, and its `-wal` and `-shm` files take the database's mode. An existing file keeps
    /// the mode its owner gave it. (`:memory:`, `""` and `file:` URIs are SQLite's to interpret.)
    init(path: String) throws {
        if !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") {
            let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if created >= 0 { close(created) }
        }
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw SQLiteError(code: status, message: "cannot open '\(path)': \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close(handle) }

    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ bindings: [SQLiteValue] = []) throws {
        _ = try queryRows(sql, bindings)
    }

    /// The first row of a query, if any.
    func queryRow(_ sql: String, _ bindings: [SQLiteValue]) throws -> [SQLiteValue]? {
        try queryRows(sql, bindings).first
    }

    /// Every row of a query.
    func queryRows(_ sql: String, _ bindings: [SQLiteValue]) throws -> [[SQLiteValue]] {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil))
        defer { sqlite3_finalize(statement) }
        // SQLITE_TRANSIENT: SQLite copies the bound text before this function returns.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let number): try check(sqlite3_bind_int64(statement, index, number))
            case .text(let text): try check(sqlite3_bind_text(statement, index, text, -1, transient))
            case .null: try check(sqlite3_bind_null(statement, index))
            }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { try check(status); return rows }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_NULL: .null
                default: .text(String(cString: sqlite3_column_text(statement, column)))
                }
            })
        }
    }

    private func check(_ status: Int32) throws {
        guard status != SQLITE_OK else { return }
        throw SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}
