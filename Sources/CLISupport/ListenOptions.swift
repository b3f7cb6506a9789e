public import ArgumentParser

/// `--host` and `--port` of a server executable (the examples' servers): 127.0.0.1 and a free port by default.
public struct ListenOptions: ParsableArguments, Sendable {
    /// The address to bind.
    @Option(help: "The address to bind.")
    public var host = "127.0.0.1"

    /// The port to listen on; 0 picks a free one.
    @Option(help: "The port to listen on; 0 picks a free one.")
    public var port = 0

    /// Creates the defaults (ArgumentParser fills in what the command line gives).
    public init() {}

    /// Refuses a port outside 0...65535.
    public func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535") }
    }
}
