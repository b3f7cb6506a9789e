import CLibWebSockets
import DequeModule
import Foundation
import SignalingSupport

/// The state of one WebSocket connection, shared between its public handle and the lws service thread.
///
/// Fields marked "service thread" are touched only there (lws callbacks and mailbox closures). Everything that
/// other threads reach lives in `shared`, behind a pthread lock.
final class ConnectionCore: @unchecked Sendable {
    // @unchecked: see the type comment; the split between service-thread fields and `shared` is the proof.

    enum Phase { case connecting, open, closing, closed(WebSocketCloseInfo) }

    struct Outbound {
        /// The message itself, shared (not copied) by every connection it was queued to: its bytes are copied into
        /// the loop's ``WriteScratch`` only when they are written (docs/libwebsockets.md#writes).
        var message: WebSocketMessage
        /// The payload size in bytes, counted once at enqueue.
        var size: Int
        /// Called once, outside every lock: `nil` when lws has taken the last frame, else why it never will.
        var written: (@Sendable (TransportError?) -> Void)?
    }

    struct Shared {
        var phase: Phase = .connecting
        var connectWaiter: CheckedContinuation<Void, any Error>?
        var connectError: TransportError?
        var outbound = Deque<Outbound>()
        var outboundBytes = 0
        var writeRequested = false
        var inbound = Deque<WebSocketMessage>()
        var inboundBytes = 0
        var inboundWaiter: CheckedContinuation<WebSocketMessage?, any Error>?
        var rxPaused = false
        var peakInboundBytes = 0
        var pauseCount = 0
        var resumeRequested = false
        var closeWaiters: [CheckedContinuation<WebSocketCloseInfo, Never>] = []
        var requestedClose: (code: UInt16, reason: String)?
        /// Messages written in batches so far (``ConnectionCore/takeNext()``; tests read it).
        var batchedMessages = 0
        /// The last round-trip time measured by a probe PING (``ConnectionCore/pong(_:_:)``).
        var roundTripTime: Duration?

        /// The queued frames as an array. An empty `Deque` is not copied: copying one writes a zero count into
        /// the runtime's shared empty-array storage, which ThreadSanitizer reports as a race between two event
        /// loops' service threads.
        var takenOutbound: [Outbound] { outbound.isEmpty ? [] : Array(outbound) }
    }

    let loop: WebSocketEventLoop
    let limits: ConnectionLimits
    let shared = LockedValue(Shared())

    // --- service thread ---
    var wsi: OpaquePointer?
    /// Reassembly of inbound fragments (``InboundAssembler``).
    lazy var rx = InboundAssembler(maxMessageSize: limits.maxMessageSize, keepCapacity: limits.maxFrameSize * 2)
    /// Payload bytes of ``current`` already written.
    var writeOffset = 0
    /// The message being written, owned by the service thread while its fragments go out.
    var current: Outbound?
    var peerClose: (code: UInt16, reason: String)?
    var localClose: (code: UInt16, reason: String)?
    var handshakeTimer: (any TimerHandle)?
    weak var server: ServerCore?
    var request: UpgradeRequest?
    var extraHeaders: [(name: String, value: String)] = []
    var finished = false
    /// The first X509 verification error OpenSSL reported for the server's chain (client side).
    var tlsVerifyError: Int32?
    /// The kernel thread that ran the establishing callback (tests check it is the service thread).
    var establishedOnThread: Int32 = 0
    /// The plain HTTP transaction in progress on this socket, if any (``httpRequest(_:)``).
    var httpExchange: HTTPExchange?
    /// Numbers this socket's HTTP requests, so that a late handler response finds its request gone.
    var httpSequence = 0
    /// A round-trip probe PING goes out at the next WRITEABLE (``requestProbe()``).
    var probeDue = false
    /// The probe PING waiting for its PONG.
    var probeInFlight: (sequence: UInt64, sentAt: ContinuousClock.Instant)?
    var probeSequence: UInt64 = 0
    /// Keep-alive (``ConnectionCore/checkKeepAlive(at:)``): a sign of life (a received frame, a PONG) since the
    /// loop's last sweep; the time from which the peer has surely been silent; whether the sweep watches this
    /// connection; the keep-alive PING (due at the next WRITEABLE; when it was asked for, until a sign of life).
    var heardSinceSweep = false
    /// When a close we started gives up on the peer (``beginClose(code:reason:flush:)``; the loop's sweep checks it).
    var closeDeadline: ContinuousClock.Instant?
    var silentSince = ContinuousClock.Instant.now
    var keepAliveWatched = false
    var keepAlivePingDue = false
    var keepAlivePingedAt: ContinuousClock.Instant?
    /// The WebSocket handshake completed: queued frames may be written outside WRITEABLE (``writeNow()``).
    var isEstablished: Bool { establishedOnThread != 0 }
    /// This connection waits in the mailbox's deferred writes (``requestWritable()``).
    var writeDeferred = false
    /// A deferred write ended in a close or a failed write: the next WRITEABLE returns -1 (``writeNow()``).
    var closeAtWriteable = false
    /// lws's WRITEABLE callbacks for this connection so far (tests read it).
    var writeableCallbacks = 0

    init(loop: WebSocketEventLoop, limits: ConnectionLimits) {
        self.loop = loop
        self.limits = limits
    }

    var unretained: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: Establishment (service thread)

    func established(_ wsi: OpaquePointer) {
        self.wsi = wsi
        handshakeTimer?.cancel()
        handshakeTimer = nil
        establishedOnThread = clws_gettid()
        let waiter = shared.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard case .connecting = s.phase else { return nil }
            s.phase = .open
            defer { s.connectWaiter = nil }
            return s.connectWaiter
        }
        waiter?.resume()
        startKeepAlive()
        if let server { server.established(self) }
        // A close or sends requested while connecting go out now.
        if shared.withLock({ $0.writeRequested || $0.requestedClose != nil }) { lws_callback_on_writable(wsi) }
    }

    func connectionError(_ text: String) {
        fail(Self.classify(text, verifyError: tlsVerifyError))
    }

    /// Fails a connection that has not opened yet, then lets lws tear it down.
    func fail(_ error: TransportError) {
        let waiter = shared.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard case .connecting = s.phase else { return nil }
            s.connectError = error
            defer { s.connectWaiter = nil }
            return s.connectWaiter
        }
        waiter?.resume(throwing: error)
        localClose = localClose ?? (WebSocketCloseCode.abnormal.rawValue, error.description)
    }

    /// Maps lws's connection-error text to a typed error (OpenSSL 3's own text is unhelpful,
    /// docs/libwebsockets.md#tls).
    static func classify(_ text: String, verifyError: Int32? = nil) -> TransportError {
        if let code = verifyError {
            let detail = String(cString: X509_verify_cert_error_string(Int(code)))
            return code == X509_V_ERR_HOSTNAME_MISMATCH || code == X509_V_ERR_IP_ADDRESS_MISMATCH
                ? .tlsHostnameMismatch(detail) : .tlsCertificateUntrusted(detail)
        }
        let lower = text.lowercased()
        if lower.contains("hostname") || lower.contains("host name") || lower.contains("err 62")
            || lower.contains("verify_hostname") {
            return .tlsHostnameMismatch(text)
        }
        if lower.contains("self signed") || lower.contains("self-signed") || lower.contains("issuer")
            || lower.contains("verify") || lower.contains("ssl err 1") || lower.contains("certificate") {
            return .tlsCertificateUntrusted(text)
        }
        if lower.contains("ssl") || lower.contains("tls") { return .tlsFailure(text) }
        return .connectFailed(text)
    }

    // MARK: Close (service thread)

    func peerInitiatedClose(_ input: UnsafeMutableRawPointer?, _ length: Int) {
        guard let input, length >= 2 else {
            peerClose = (1005, "")
            return
        }
        let bytes = input.assumingMemoryBound(to: UInt8.self)
        let code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        let reason = String(decoding: UnsafeBufferPointer(start: bytes + 2, count: length - 2), as: UTF8.self)
        peerClose = (code, reason)
    }

    /// Starts a close: after queued frames are flushed (`flush`) or at once.
    func beginClose(code: UInt16, reason: String, flush: Bool) {
        guard !finished else { return }
        let stillConnecting = shared.withLock { s -> Bool in
            guard case .connecting = s.phase else { return false }
            s.requestedClose = s.requestedClose ?? (code, reason)
            return true
        }
        if stillConnecting {
            // No WebSocket yet: abandon the attempt at once (a cancelled connect, or a server handshake cut short).
            fail(.closed(WebSocketCloseInfo(code: WebSocketCloseCode(rawValue: code), reason: reason, initiatedLocally: true)))
            if let wsi { lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC) }
            return
        }
        guard let wsi else { return }
        localClose = localClose ?? (code, reason)
        let dropped = shared.withLock { s -> [Outbound] in
            s.requestedClose = s.requestedClose ?? (code, reason)
            if case .open = s.phase { s.phase = .closing }
            guard !flush else { return [] }
            defer { s.outbound.removeAll(); s.outboundBytes = 0 }
            return s.takenOutbound
        } + (flush ? [] : takeCurrent())
        let error = TransportError.closed(WebSocketCloseInfo(code: WebSocketCloseCode(rawValue: code), reason: reason, initiatedLocally: true))
        dropped.forEach { $0.written?(error) }
        // A peer that never lets us write must not keep the socket forever: the loop's sweep drops it at this
        // deadline (not lws_set_timeout: docs/libwebsockets.md#keepalive on lws's sorted timer list).
        if closeDeadline == nil {
            closeDeadline = .now + .seconds(flush ? 5 : 1)
            loop.watchSweep(period: .seconds(1))
        }
        lws_callback_on_writable(wsi)
    }

    /// Final bookkeeping when lws reports the connection closed; idempotent.
    func finish(reason: String?) {
        guard !finished else { return }
        finished = true
        handshakeTimer?.cancel()
        abandonHTTP()
        let info: WebSocketCloseInfo
        if let peerClose {
            info = WebSocketCloseInfo(code: WebSocketCloseCode(rawValue: peerClose.code), reason: peerClose.reason, initiatedLocally: false)
        } else if let localClose {
            info = WebSocketCloseInfo(code: WebSocketCloseCode(rawValue: localClose.code), reason: localClose.reason, initiatedLocally: true)
        } else {
            info = WebSocketCloseInfo(code: .abnormal, reason: reason ?? "connection dropped", initiatedLocally: false)
        }
        let closedError = TransportError.closed(info)
        let (connect, connectError, sends, reader, closers) = shared.withLock { s in
            s.phase = .closed(info)
            defer {
                s.connectWaiter = nil
                s.outbound.removeAll()
                s.outboundBytes = 0
                s.inboundWaiter = nil
                s.closeWaiters = []
            }
            return (s.connectWaiter, s.connectError, s.takenOutbound, s.inboundWaiter, s.closeWaiters)
        }
        connect?.resume(throwing: connectError ?? Self.connectFailure(info))
        (sends + takeCurrent()).forEach { $0.written?(closedError) }
        reader?.resume(returning: nil)
        closers.forEach { $0.resume(returning: info) }
        server?.closed(self)
    }

    /// Service thread: removes the frame being written (its fragments will never complete).
    private func takeCurrent() -> [Outbound] {
        defer { current = nil; writeOffset = 0 }
        return current.map { [$0] } ?? []
    }

    private static func connectFailure(_ info: WebSocketCloseInfo) -> TransportError {
        info.code == .abnormal ? .connectFailed(info.reason) : .closed(info)
    }

    func destroyed() {
        finish(reason: nil)
        wsi = nil
        loop.unregister(self)
    }
}
