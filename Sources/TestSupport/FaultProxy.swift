import Foundation
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// A fault-injecting TCP proxy on 127.0.0.1 (an ephemeral port) in front of a target port, for the resilience
/// tests (docs/testing.md#fault-injection). Each accepted connection is paired with a new connection to the target
/// and pumped both ways by two threads of its own (blocking sockets, never the cooperative pool).
///
/// Faults, all reversible and applying to every connection, present and future:
/// - ``pause()`` stops forwarding (sockets stay open, bytes wait), ``resume()`` forwards again: a stall.
/// - ``dropping`` discards what arrives instead of forwarding it: a black hole.
/// - ``delay`` holds each chunk that long before forwarding it.
/// - ``cutAll(refusingFor:)`` closes every connection at once (the peers see a drop without a close frame) and
///   closes new ones at once for a while.
/// - ``retarget(port:)`` sends later connections elsewhere (a restarted server on a new port).
public final class FaultProxy: Sendable {
    /// The port clients dial.
    public let port: Int
    private let listener: Int32

    private struct Link {
        let client: Int32
        let server: Int32
        var pumpsRunning = 2
        /// Set by ``cutAll(refusingFor:)``: a pump holding a chunk in a pause drops it and ends.
        var cut = false
    }
    private struct State {
        var target: Int
        var paused = false
        var dropping = false
        var delay: Duration = .zero
        var refuseUntil: ContinuousClock.Instant?
        var links: [UInt64: Link] = [:]
        var nextLink: UInt64 = 0
        var accepted = 0
        var stopped = false
    }
    private let state: LockedValue<State>

    /// Starts a proxy to `127.0.0.1:targetPort`.
    public init(targetPort: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SilentTCPListener.SocketError(description: "socket: \(errno)") }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw SilentTCPListener.SocketError(description: "bind/listen: \(errno)")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        state = LockedValue(State(target: targetPort))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { close(listener) }

    /// The URL of a WebSocket endpoint behind the proxy, e.g. `ws://127.0.0.1:PORT/room` for `path` `/room`.
    public func url(path: String) -> String { "ws://127.0.0.1:\(port)\(path)" }

    /// Stops forwarding in both directions; connections stay open and bytes wait (a stalled network).
    public func pause() { state.withLock { $0.paused = true } }

    /// Forwards again what waited and what comes.
    public func resume() { state.withLock { $0.paused = false } }

    /// Whether arriving bytes are discarded instead of forwarded.
    public var dropping: Bool {
        get { state.withLock { $0.dropping } }
        set { state.withLock { $0.dropping = newValue } }
    }

    /// How long each chunk is held before it is forwarded. Default zero.
    public var delay: Duration {
        get { state.withLock { $0.delay } }
        set { state.withLock { $0.delay = newValue } }
    }

    /// Later connections go to `127.0.0.1:port`.
    public func retarget(port: Int) { state.withLock { $0.target = port } }

    /// The number of connections accepted so far (refused ones included).
    public var acceptedConnections: Int { state.withLock { $0.accepted } }

    /// The number of connections being forwarded now.
    public var openConnections: Int { state.withLock { $0.links.count } }

    /// Cuts every connection at once (both sides see the TCP connection end, no WebSocket close frame), and
    /// closes connections that arrive within `refusingFor` right after accepting them.
    public func cutAll(refusingFor: Duration = .zero) {
        // shutdown wakes the pump threads; the last pump of a link closes its descriptors after removing it from
        // `links` under the lock, so a descriptor shut down here is never a closed (and maybe reused) one.
        state.withLock { s in
            s.refuseUntil = refusingFor > .zero ? ContinuousClock.now + refusingFor : nil
            for key in s.links.keys {
                s.links[key]?.cut = true
                if let link = s.links[key] {
                    shutdown(link.client, Int32(SHUT_RDWR))
                    shutdown(link.server, Int32(SHUT_RDWR))
                }
            }
        }
    }

    /// Stops accepting and cuts every connection. The proxy cannot be restarted.
    public func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        cutAll()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let (target, refuse, stopped) = state.withLock { s -> (Int, Bool, Bool) in
                s.accepted += 1
                return (s.target, s.refuseUntil.map { ContinuousClock.now < $0 } ?? false, s.stopped)
            }
            if stopped {
                close(client)
                return
            }
            guard !refuse, let server = Self.connectLoopback(port: target) else {
                close(client)
                continue
            }
            let key = state.withLock { s -> UInt64 in
                s.nextLink += 1
                s.links[s.nextLink] = Link(client: client, server: server)
                return s.nextLink
            }
            Thread.detachNewThread { [self] in pump(from: client, to: server, link: key) }
            Thread.detachNewThread { [self] in pump(from: server, to: client, link: key) }
        }
    }

    private func pump(from source: Int32, to destination: Int32, link key: UInt64) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        forwarding: while true {
            let count = recv(source, &buffer, buffer.count, 0)
            if count <= 0 { break }
            while state.withLock({ $0.paused && $0.links[key]?.cut == false }) { usleep(1000) }
            let (dropping, delay, alive) = state.withLock { ($0.dropping, $0.delay, $0.links[key]?.cut == false) }
            guard alive else { break }
            if dropping { continue }
            if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds)) }
            var offset = 0
            while offset < count {
                let sent = buffer[offset..<count].withUnsafeBytes {
                    send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { break forwarding }
                offset += sent
            }
        }
        // One side ended: end the other (a half-close would leave WebSocket peers waiting).
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
        let finished = state.withLock { s -> Link? in
            guard var link = s.links[key] else { return nil }
            link.pumpsRunning -= 1
            if link.pumpsRunning == 0 {
                s.links[key] = nil
                return link
            }
            s.links[key] = link
            return nil
        }
        if let finished {
            close(finished.client)
            close(finished.server)
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func connectLoopback(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}

/// The number of open file descriptors of this process (Linux: the entries of `/proc/self/fd`), for leak checks.
public func openFileDescriptorCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// The number of open sockets of this process (the `socket:` entries of `/proc/self/fd`), for leak checks.
public func openSocketCount() -> Int {
    openFileDescriptorDescriptions().count { $0.contains("socket:") }
}

/// What each open descriptor of this process points to (`/proc/self/fd`), for a leak check's failure message.
public func openFileDescriptorDescriptions() -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { entry in
        "\(entry) → " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) ?? "?")
    }
}
