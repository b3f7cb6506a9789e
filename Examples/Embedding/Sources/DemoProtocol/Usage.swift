import Foundation

/// The three programs' command line: `--help` (or `-h`) prints `usage` on standard output and exits 0; any other
/// count of arguments than `count` prints it on standard error and exits 2. Returns the arguments otherwise.
public func arguments(count: Int, usage: String) -> [String] {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.contains("--help") || arguments.contains("-h") {
        print("usage: \(usage)")
        exit(0)
    }
    guard arguments.count == count else {
        FileHandle.standardError.write(Data("usage: \(usage)\n".utf8))
        exit(2)
    }
    return arguments
}
