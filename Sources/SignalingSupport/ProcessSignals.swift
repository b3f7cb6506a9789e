public import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Signals for command-line servers: SIGINT and SIGTERM become a graceful shutdown instead of their default
/// action (immediate termination).
public enum ProcessSignals {
    /// Delivers `numbers` through Dispatch as a stream, and returns the sources that deliver them: keep them
    /// alive (and cancel them) for as long as the stream is read. Call it before listening, so no signal is missed.
    public static func stream(_ numbers: [Int32], label: String = "signals")
        -> (AsyncStream<Int32>, [any DispatchSourceSignal])
    {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: label)
        let sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        return (stream, sources)
    }
}
