import Foundation
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// A fault-injecting TCP proxy on 127.0.0.1 (an ephemeral port) in front of a target port, for the resilience
/// tests (docs/testing.md#fault-injection). Each accepted connection (a *link*) is paired with a new connection to
/// the target and pumped both ways by two threads of its own (blocking sockets, never the cooperative pool).
///
/// Faults are reversible. Set on the proxy they apply to every link, present and future; set on one ``Link`` they
/// apply to that link alone (a link suffers the faults of both). Each direction (``Direction``) has its own:
/// - ``pause()`` / ``pause(_:)`` stop forwarding (sockets stay open, bytes wait), ``resume()`` / ``resume(_:)``
///   forward again: a stall.
/// - ``dropping`` / ``blackHole(_:)`` read and discard what arrives: a black hole. The sender's kernel buffers drain
///   into the void, so the sender believes it delivered; ``endBlackHole(_:)`` forwards again.
/// - ``delay`` / ``setDelay(_:for:)`` hold each chunk that long before forwarding it.
/// - ``cutNextChunkInHalfAndReset(_:)`` forwards half of the next chunk, then resets the link (a reply cut short).
///
/// And links end:
/// - ``cutAll(refusingFor:)`` ends every link with a FIN on both sides (the peers read the end of the stream, no
///   WebSocket close frame) and closes new ones at once for a while.
/// - ``resetAll(refusingFor:)`` and ``Link/reset()`` end links with a TCP reset on both sides (`SO_LINGER` {1, 0}):
///   the peers' next read fails with `ECONNRESET`, and whatever either kernel still held for the other is gone.
/// - ``retarget(port:)`` sends later connections elsewhere (a restarted server on a new port).
///
/// ``links`` and ``waitForLink(after:timeout:)`` name the links, for faults on one of them: a session taken over by a
/// second connection while the first one's link is paused or black-holed, say.
public final class FaultProxy: Sendable {
    /// The port clients dial.
    public let port: Int
    private let listener: Int32

    /// One accepted connection and its connection to the target.
    struct Pair {
        let client: Int32
        let server: Int32
        var pumpsRunning = 2
        /// Set when the link is ended (cut or reset): a pump holding a chunk drops it and ends.
        var ended = false
        /// Set by a reset: the last pump closes both sockets with a reset instead of shutting them down.
        var resets = false
        /// This link's own faults.
        var faults = Faults()
    }
    struct State {
        var target: Int
        /// The faults of every link.
        var faults = Faults()
        var refuseUntil: ContinuousClock.Instant?
        var links: [UInt64: Pair] = [:]
        var nextLink: UInt64 = 0
        var accepted = 0
        var stopped = false
        /// What the black holes swallowed, per direction, across links (``FaultProxy/discardedBytes(_:)``).
        var discarded: [Direction: Discarded] = [:]

        /// What applies to `direction` of link `key`: the proxy's faults and the link's own, together, and whether
        /// the link ended.
        func faults(of key: UInt64, _ direction: Direction) -> Faults.Effective {
            guard let pair = links[key] else { return Faults.Effective(ended: true) }
            return faults.combined(with: pair.faults, direction, ended: pair.ended)
        }
    }
    let state: LockedValue<State>

    /// Starts a proxy to `127.0.0.1:targetPort`.
    public init(targetPort: Int) throws {
        (listener, port) = try SilentTCPListener.listeningSocket(backlog: 128)
        state = LockedValue(State(target: targetPort))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { close(listener) }

    /// The URL of a WebSocket endpoint behind the proxy, e.g. `ws://127.0.0.1:PORT/room` for `path` `/room`.
    public func url(path: String) -> String { "ws://127.0.0.1:\(port)\(path)" }

    /// Later connections go to `127.0.0.1:port`.
    public func retarget(port: Int) { state.withLock { $0.target = port } }

    /// The number of connections accepted so far (refused ones included).
    public var acceptedConnections: Int { state.withLock { $0.accepted } }

    /// The number of connections being forwarded now.
    public var openConnections: Int { state.withLock { $0.links.count } }

    /// Cuts every connection at once (both sides see the TCP connection end, no WebSocket close frame), and
    /// closes connections that arrive within `refusingFor` right after accepting them.
    public func cutAll(refusingFor: Duration = .zero) {
        end(state.withLock { Array($0.links.keys) }, resetting: false, refusingFor: refusingFor)
    }

    /// Resets every connection at once: both peers get a TCP reset (RST, not FIN: `SO_LINGER` {1, 0} before the
    /// close), so neither reads a clean end, and what their kernels held for each other is discarded. Connections
    /// that arrive within `refusingFor` are closed right after they are accepted.
    public func resetAll(refusingFor: Duration = .zero) {
        end(state.withLock { Array($0.links.keys) }, resetting: true, refusingFor: refusingFor)
    }

    /// Stops accepting and cuts every connection. The proxy cannot be restarted.
    public func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        cutAll()
    }

    /// Ends links `keys`: with a FIN each way (`shutdown`), or with a reset. A reset only wakes the pumps
    /// (`SHUT_RD` sends nothing on Linux) and leaves the close, with `SO_LINGER` {1, 0}, to the last pump. The last
    /// pump of a link closes its descriptors after removing it from `links` under the lock, so a descriptor touched
    /// here is never a closed (and maybe reused) one.
    func end(_ keys: [UInt64], resetting: Bool, refusingFor: Duration? = nil) {
        state.withLock { s in
            if let refusingFor { s.refuseUntil = refusingFor > .zero ? ContinuousClock.now + refusingFor : nil }
            for key in keys {
                guard var pair = s.links[key], !pair.ended else { continue }
                pair.ended = true
                pair.resets = resetting
                s.links[key] = pair
                for fd in [pair.client, pair.server] {
                    if resetting {
                        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                    }
                    shutdown(fd, Int32(resetting ? SHUT_RD : SHUT_RDWR))
                }
            }
        }
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
            // A pump blocked in `send` (its reader stalled) wakes every 50 ms to see whether its link ended.
            var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
            for fd in [client, server] {
                setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            }
            let key = state.withLock { s -> UInt64 in
                s.nextLink += 1
                s.links[s.nextLink] = Pair(client: client, server: server)
                return s.nextLink
            }
            Thread.detachNewThread { [self] in pump(from: client, to: server, link: key, .clientToServer) }
            Thread.detachNewThread { [self] in pump(from: server, to: client, link: key, .serverToClient) }
        }
    }

    private func pump(from source: Int32, to destination: Int32, link key: UInt64, _ direction: Direction) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        forwarding: while true {
            let count = recv(source, &buffer, buffer.count, 0)
            if count <= 0 { break }
            var faults = state.withLock { $0.faults(of: key, direction) }
            while faults.paused && !faults.ended {
                usleep(1000)
                faults = state.withLock { $0.faults(of: key, direction) }
            }
            if faults.ended { break }
            if faults.dropping {
                state.withLock { $0.discarded[direction, default: Discarded()].append(buffer[0..<count]) }
                continue
            }
            if faults.delay > .zero { Thread.sleep(forTimeInterval: faults.delay.inSeconds) }
            let cut = faults.cutting && takeCut(key, direction)
            let limit = cut ? max(1, count / 2) : count
            var offset = 0
            while offset < limit {
                let sent = buffer[offset..<limit].withUnsafeBytes {
                    send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                    if state.withLock({ $0.links[key]?.ended ?? true }) { break forwarding }
                    continue
                }
                if sent <= 0 { break forwarding }
                offset += sent
            }
            if cut {
                end([key], resetting: true)
                break
            }
        }
        // One side ended: end the other (a half-close would leave WebSocket peers waiting), the way the link ends.
        end([key], resetting: false)
        let finished = state.withLock { s -> Pair? in
            guard var pair = s.links[key] else { return nil }
            pair.pumpsRunning -= 1
            if pair.pumpsRunning == 0 {
                s.links[key] = nil
                return pair
            }
            s.links[key] = pair
            return nil
        }
        if let finished {
            close(finished.client)
            close(finished.server)
        }
    }

    /// Clears a one-shot cut of `direction` (the proxy's and the link's); true when one was armed.
    private func takeCut(_ key: UInt64, _ direction: Direction) -> Bool {
        state.withLock { s in
            let armed = s.faults.cutting.remove(direction) != nil
            let own = s.links[key]?.faults.cutting.remove(direction) != nil
            return armed || own
        }
    }

    private static func connectLoopback(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
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

extension Duration {
    /// The duration in seconds, for `Thread.sleep(forTimeInterval:)`.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
