import CLibWebSockets
import SignalingSupport

/// Round-trip probe of a server-side connection: a PING of our own, whose PONG gives
/// ``WebSocketConnection/roundTripTime`` (docs/libwebsockets.md#round-trip-probe). The server's probe timer marks
/// each open connection due; the PING goes out in the next WRITEABLE, between messages (never between the fragments
/// of one), and its send time is taken when lws has it.
extension ConnectionCore {
    /// The first bytes of every probe payload, so that PONGs to anyone else's PING (lws's keep-alive, a peer's
    /// unsolicited PONG) are told apart.
    static let probeMagic: [UInt8] = Array("ksRT".utf8)

    /// Service thread: whether the connection is established and not closing (worth probing).
    var isOpen: Bool {
        guard !finished, wsi != nil, case .open = shared.withLock({ $0.phase }) else { return false }
        return true
    }

    /// Service thread, from the server's probe timer: marks this connection due for a probe and asks for
    /// WRITEABLE. Returns whether the connection is open (and so worth probing again).
    @discardableResult
    func requestProbe() -> Bool {
        guard isOpen, let wsi else { return false }
        probeDue = true
        lws_callback_on_writable(wsi)
        return true
    }

    /// In WRITEABLE, before the next message: writes the due probe PING (12 bytes: the magic and a big-endian
    /// sequence number). False when lws refused it (close).
    func writeProbe(_ wsi: OpaquePointer) -> Bool {
        probeDue = false
        probeSequence &+= 1
        var frame = [UInt8](repeating: 0, count: CLWS_PRE) + Self.probeMagic
        for shift in stride(from: 56, through: 0, by: -8) {
            frame.append(UInt8(truncatingIfNeeded: probeSequence >> UInt64(shift)))
        }
        let length = frame.count - CLWS_PRE
        let written = frame.withUnsafeMutableBufferPointer {
            lws_write(wsi, $0.baseAddress! + CLWS_PRE, length, LWS_WRITE_PING)
        }
        guard written >= length else { return false }
        probeInFlight = (probeSequence, .now)
        return true
    }

    /// `LWS_CALLBACK_RECEIVE_PONG` / `LWS_CALLBACK_CLIENT_RECEIVE_PONG`: any PONG is a sign of life (keep-alive); the
    /// PONG to our probe in flight also sets the round-trip time.
    func pong(_ input: UnsafeMutableRawPointer?, _ length: Int) {
        heard()
        guard let probe = probeInFlight, let input, length == Self.probeMagic.count + 8 else { return }
        let bytes = UnsafeRawBufferPointer(start: input, count: length)
        guard bytes.prefix(Self.probeMagic.count).elementsEqual(Self.probeMagic) else { return }
        let sequence = bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard sequence == probe.sequence else { return }
        probeInFlight = nil
        let rtt = ContinuousClock.now - probe.sentAt
        shared.withLock { $0.roundTripTime = rtt }
    }
}
