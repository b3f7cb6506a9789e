import Foundation

/// A listening WebSocket server on a ``WebSocketEventLoop``.
///
/// ```swift
/// let server = try await WebSocketServer.start(.init())        // 127.0.0.1, ephemeral port
/// for await connection in server.connections {
///     Task { for try await message in connection.messages { try await connection.send(message) } }
/// }
/// ```
public final class WebSocketServer: Sendable {
    let core: ServerCore

    /// The port the server listens on (the real one when the configuration asked for port 0).
    public let port: Int
    /// The host the configuration named (``WebSocketServerConfiguration/host``), as ``url`` shows it.
    public let host: String
    /// The address bound: ``host`` itself when it is an address (or an interface name), else the first address its
    /// name resolved to, e.g. `127.0.0.1` for `localhost`.
    public let address: String
    /// Whether the server speaks TLS.
    public let isSecure: Bool
    private let accepted: AsyncStream<WebSocketConnection>

    /// Accepted connections, after the upgrade was accepted. Single consumer; ends at shutdown, also when the
    /// event loop shuts down. Iterating it keeps the server alive (a released server shuts down).
    public var connections: AcceptedConnections { AcceptedConnections(server: self, stream: accepted) }

    /// The server's base URL, e.g. `ws://127.0.0.1:41234`.
    public var url: String { baseURL(scheme: isSecure ? "wss" : "ws") }

    /// The server's base URL for plain HTTP (``WebSocketServerConfiguration/httpHandler``), e.g.
    /// `http://127.0.0.1:41234`; `https` when the server speaks TLS.
    public var httpURL: String { baseURL(scheme: isSecure ? "https" : "http") }

    /// `scheme://host:port`, an IPv6 host in brackets.
    private func baseURL(scheme: String) -> String {
        let h = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(h):\(port)"
    }

    private init(core: ServerCore, port: Int, connections: AsyncStream<WebSocketConnection>) {
        self.core = core
        self.port = port
        self.host = core.configuration.host
        self.address = core.address
        self.isSecure = core.configuration.tls != nil
        self.accepted = connections
    }

    deinit {
        let core = self.core
        try? core.loop.submit { core.shutdownWhenDrained() }
    }

    /// Binds and starts listening. A host name is resolved first (off the service thread) and its first address,
    /// IPv4 first, is bound (``address``); ``url`` keeps the name.
    /// - Throws: ``TransportError/listenFailed(_:)`` with the reason: a name that does not resolve, an address
    ///   in use or not of this machine (the system's words, e.g. "address already in use"), a TLS file that cannot
    ///   be read (which, and why) or is unusable; ``TransportError/eventLoopShutDown`` at once when `loop` has been
    ///   shut down.
    public static func start(
        _ configuration: WebSocketServerConfiguration = .init(), loop: WebSocketEventLoop = .shared
    ) async throws -> WebSocketServer {
        if let unreadable = ListenAddress.unreadableFile(of: configuration.tls) {
            throw TransportError.listenFailed(unreadable)
        }
        let address = try await ListenAddress.resolve(configuration.host)
        // lws defers the listen on an address that is not of this machine too (nothing would listen): ask the system
        // first, in its words ("address already in use", "cannot assign requested address").
        if let reason = ListenAddress.bindFailure(address: address, port: configuration.port) {
            throw TransportError.listenFailed(reason)
        }
        let (stream, continuation) = AsyncStream<WebSocketConnection>.makeStream()
        let core = ServerCore(loop: loop, configuration: configuration, address: address, accepted: continuation)
        let listened: Result<Int, TransportError>
        do {
            listened = try await loop.onServiceThread { _ in
                do throws(TransportError) { return .success(try core.listen()) } catch { return .failure(error) }
            }
        } catch {
            continuation.finish()
            throw error
        }
        return WebSocketServer(core: core, port: try listened.get(), connections: stream)
    }

    /// Reads the certificate and key files of ``WebSocketServerConfiguration/tls`` again and serves them from the
    /// next handshake on; connections already open keep theirs (docs/libwebsockets.md#tls). For renewals: write the
    /// new files (a whole chain, the leaf first, as at start), then call this, e.g. on SIGHUP. The files are read
    /// here, off the service thread, and parsed and checked before anything changes: when this throws, the server
    /// goes on serving the certificate it had.
    /// - Throws: ``TransportError/tlsFailure(_:)`` with the reason: the server speaks no TLS or has stopped, a file
    ///   cannot be read, holds no PEM certificate or unencrypted key, the key does not belong to the certificate, or
    ///   its type differs from the one served (RSA and ECDSA: restart to change it).
    public func reloadCertificate() async throws {
        guard let files = core.configuration.tls else { throw TransportError.tlsFailure("the server speaks no TLS") }
        let certificate: [UInt8], key: [UInt8]
        certificate = try Self.contents(of: files.certificateFile)
        key = try Self.contents(of: files.privateKeyFile)
        let core = self.core
        if let failure = try await core.loop.onServiceThread({ _ in core.replaceCertificate(certificate, key) }) {
            throw TransportError.tlsFailure("certificate not reloaded: \(failure)")
        }
    }

    /// The bytes of the file at `path`.
    private static func contents(of path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TransportError.tlsFailure("certificate not reloaded: cannot read \(path)")
        }
        defer { try? handle.close() }
        do {
            return Array(try handle.readToEnd() ?? Data())
        } catch {
            throw TransportError.tlsFailure("certificate not reloaded: cannot read \(path): \(error)")
        }
    }

    /// Stops accepting, closes every connection with `code` (1001 by default), waits for them to close, and
    /// releases the port. Returns at once when the event loop has shut down (which stopped the server already).
    public func shutdown(code: WebSocketCloseCode = .goingAway, reason: String = "server shutting down") async {
        let core = self.core
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            do throws(TransportError) {
                try core.loop.submit { core.beginShutdown(code: code, reason: reason, waiter: c) }
            } catch {
                c.resume()  // the loop ended, or is ending: it closes the connections and the vhost itself
            }
        }
        try? await core.loop.onServiceThread { _ in core.destroyVhost() }
    }
}

/// The connections a ``WebSocketServer`` accepts, in order. Holds the server while it is iterated.
public struct AcceptedConnections: AsyncSequence, Sendable {
    public typealias Element = WebSocketConnection
    let server: WebSocketServer
    let stream: AsyncStream<WebSocketConnection>

    public struct AsyncIterator: AsyncIteratorProtocol {
        let server: WebSocketServer
        var base: AsyncStream<WebSocketConnection>.AsyncIterator
        public mutating func next() async -> WebSocketConnection? { await base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(server: server, base: stream.makeAsyncIterator())
    }
}
