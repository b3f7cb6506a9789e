import Foundation

/// Where `room-join` writes: events to stdout, one line each, written straight to the file descriptor so a reader
/// sees each line at once; problems to stderr.
enum Output {
    /// Writes `text` and a newline to stdout.
    static func line(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }

    /// Writes `text` and a newline to stderr.
    static func error(_ text: String) { FileHandle.standardError.write(Data(("room-join: " + text + "\n").utf8)) }
}
