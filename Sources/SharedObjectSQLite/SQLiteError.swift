/// A SQLite call failed: its result code and SQLite's message.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite's result code (e.g. 14, SQLITE_CANTOPEN).
    public var code: Int32
    /// SQLite's message.
    public var message: String

    /// Creates an error.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "SQLite error \(code): \(message)" }
}
