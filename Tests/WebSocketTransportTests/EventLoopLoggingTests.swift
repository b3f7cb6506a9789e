import InMemoryLogging
import Logging
import TestSupport
import Testing
@testable import WebSocketTransport

/// libwebsockets' own log lines reach the loop's swift-log `Logger`, and a context lws refuses is a thrown error
/// with lws's reason in that log, never a crash (docs/libwebsockets.md#logging).
@Suite struct EventLoopLoggingTests {
    /// A logger at `level` that keeps what it is given, and the handler to read it back from.
    static func capturingLogger(at level: Logger.Level) -> (Logger, InMemoryLogHandler) {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "lws-test", factory: { _ in handler })
        logger.logLevel = level
        return (logger, handler)
    }

    @Test func lwsNoticesReachTheLoopsLoggerAsNotices() async throws {
        // Given a logger that keeps notices and above
        let (logger, log) = Self.capturingLogger(at: .notice)

        // When a loop starts with it (lws announces its version at NOTICE while creating the context)
        let loop = try WebSocketEventLoop(configuration: .init(logger: logger))

        // Then the announcement arrives as a notice
        try await waitUntil("lws's version notice") {
            log.entries.contains { $0.level == .notice && "\($0.message)".hasPrefix("LWS: 4.") }
        }
        await loop.shutdown()
    }

    @Test func linesBelowTheLoggersLevelAreNotDelivered() async throws {
        // Given a logger that keeps warnings and errors only
        let (logger, log) = Self.capturingLogger(at: .warning)

        // When a loop starts and stops with it (lws logs notices and infos meanwhile, no warnings)
        let loop = try WebSocketEventLoop(configuration: .init(logger: logger))
        await loop.shutdown()

        // Then nothing below a warning was delivered
        #expect(log.entries.allSatisfy { $0.level >= .warning })
    }

    @Test func aLoggerSetOnARunningLoopGetsItsServiceThreadsLines() async throws {
        // Given a running loop whose logger discards everything
        let loop = try WebSocketEventLoop()

        // When an info logger is set and a server starts (lws reports the new vhost at INFO, on the service thread)
        let (logger, log) = Self.capturingLogger(at: .info)
        loop.logger = logger
        let server = try await WebSocketServer.start(loop: loop)

        // Then the line arrives as an info
        try await waitUntil("lws's vhost line") {
            log.entries.contains { $0.level == .info && "\($0.message)".contains("Vhost") }
        }
        await server.shutdown()
        await loop.shutdown()
    }

    @Test func aContextLWSRefusesThrowsEventLoopUnavailableAndLogsLWSsReason() async throws {
        // Given loop settings lws refuses (a TCP keep-alive time without an interval), and an error logger
        let (logger, log) = Self.capturingLogger(at: .error)
        var configuration = WebSocketEventLoopConfiguration(logger: logger)
        configuration.refusedByLWSForTesting = true

        // When the loop is created
        // Then the creation throws eventLoopUnavailable instead of crashing the process
        let error = #expect(throws: TransportError.self) { _ = try WebSocketEventLoop(configuration: configuration) }
        guard case .eventLoopUnavailable? = error else {
            Issue.record("expected eventLoopUnavailable, got \(String(describing: error))")
            return
        }
        // And lws's reason reaches the logger as an error
        try await waitUntil("lws's reason") {
            log.entries.contains { $0.level == .error && "\($0.message)".contains("ka_interval") }
        }
    }

    @Test func aLoopThatCouldNotStartRefusesWorkWithItsReason() async throws {
        // Given a loop whose context lws refused (as the shared loop would be)
        var configuration = WebSocketEventLoopConfiguration()
        configuration.refusedByLWSForTesting = true
        let loop = WebSocketEventLoop(configuration: configuration, serverReleaseGrace: .seconds(1))

        // When a client connects through it
        // Then the connect fails at once with eventLoopUnavailable
        let error = await #expect(throws: TransportError.self) {
            try await withDeadline(.seconds(2), "connect on a loop that never started") {
                _ = try await WebSocketConnection.connect(to: "ws://127.0.0.1:9/never", loop: loop)
            }
        }
        guard case .eventLoopUnavailable? = error else {
            Issue.record("expected eventLoopUnavailable, got \(String(describing: error))")
            return
        }
    }

    @Test func lwsLevelsMapToTheirSwiftLogNamesakes() {
        // Given lws's levels ERR, WARN, NOTICE, INFO, DEBUG, PARSER and USER (LLL_* bits 0, 1, 2, 3, 4, 5, 10)
        let levels: [Int32] = [1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 10]

        // When they are mapped
        let mapped = levels.map(LWSLogLevels.swiftLevel(of:))

        // Then each gets its namesake, the finer debug classes trace and USER info; a logger's level picks the mask
        #expect(mapped == [.error, .warning, .notice, .info, .debug, .trace, .info])
        #expect(LWSLogLevels.mask(from: .warning) == 0b11)
        #expect(LWSLogLevels.mask(from: .notice) == 0b111)
        #expect(LWSLogLevels.mask(from: .critical) == 0)
        #expect(LWSLogLevels.mask(from: .trace) == (1 << 12) - 1)
    }
}
