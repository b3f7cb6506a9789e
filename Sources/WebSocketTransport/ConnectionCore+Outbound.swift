import CLibWebSockets
import DequeModule
import SignalingSupport
import Foundation

/// Outbound path: sends enqueue without blocking, the service thread writes as many frames per WRITEABLE as the
/// socket takes (docs/libwebsockets.md#writes), and a queue above its byte limit closes the connection with 1008.
extension ConnectionCore {
    /// Queues `message`; resumes when lws has taken its last frame.
    func send(_ message: WebSocketMessage) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            do {
                try enqueue(message) { error in
                    if let error { c.resume(throwing: error) } else { c.resume() }
                }
            } catch {
                c.resume(throwing: error)
            }
        }
    }

    /// Queues `message` without waiting for it to be written; `written` (if any) is called once, on the service
    /// thread, never from inside this call: `nil` once lws has taken the last frame, or the
    /// error when the connection ended first.
    ///
    /// The queue keeps `message` itself, not a copy of its bytes: a message queued to many connections (a room
    /// broadcast) is held once, whatever the number of recipients (docs/libwebsockets.md#writes).
    func enqueue(_ message: WebSocketMessage, written: (@Sendable (TransportError?) -> Void)?) throws {
        let size = message.byteCount
        enum Outcome { case closed(TransportError), queued(wake: Bool), overflow }
        let outcome = shared.withLock { s -> Outcome in
            switch s.phase {
            case .closed(let info): return .closed(.closed(info))
            case .closing:
                let close = s.requestedClose ?? (1000, "closing")
                return .closed(.closed(WebSocketCloseInfo(
                    code: WebSocketCloseCode(rawValue: close.code), reason: close.reason, initiatedLocally: true)))
            case .connecting, .open: break
            }
            s.outbound.append(Outbound(message: message, size: size, written: written))
            s.outboundBytes += size
            if s.outboundBytes > limits.maxOutboundBytes { return .overflow }
            if s.writeRequested { return .queued(wake: false) }
            s.writeRequested = true
            return .queued(wake: true)
        }
        switch outcome {
        case .closed(let error): throw error
        case .queued(let wake):
            // On the service thread (a task on the loop's executor): straight to lws, no wake-up. Elsewhere through
            // the mailbox, refused only when the loop is ending: it then finishes this connection, failing what is
            // queued.
            if wake { loop.onServiceThreadSoon { [self] in requestWritable() } }
        case .overflow:
            let limit = limits.maxOutboundBytes
            try? loop.submit { [self] in
                beginClose(code: WebSocketCloseCode.policyViolation.rawValue,
                           reason: "outbound queue exceeded \(limit) bytes (slow consumer)", flush: false)
            }
        }
    }

    /// Service thread: has what is queued written once the connection is open: at the end of this turn of the loop
    /// (``ServiceMailbox/deferWrite(_:)``), else at lws's next WRITEABLE callback.
    func requestWritable() {
        guard let wsi, !finished else { return }
        if writeDeferred { return }
        if isEstablished, loop.mailbox.deferWrite(self) {
            writeDeferred = true
        } else {
            lws_callback_on_writable(wsi)
        }
    }

    /// Service thread: asks lws for a WRITEABLE callback (a deferred write that waited too many rounds).
    func requestWritableCallback() {
        writeDeferred = false
        if let wsi, !finished { lws_callback_on_writable(wsi) }
    }

    /// Service thread, outside lws's WRITEABLE: a deferred write (``requestWritable()``). Writes what the socket takes
    /// now, as ``writeable(_:)`` does; lws still holding part of an earlier write waits for WRITEABLE instead, and so
    /// does a close (``writeable(_:)`` returning -1 can only take effect as a callback's return value).
    func writeNow() {
        writeDeferred = false
        guard let wsi, !finished else { return }
        if lws_partial_buffered(wsi) != 0 {
            lws_callback_on_writable(wsi)
        } else if writeable(wsi) != 0 {
            closeAtWriteable = true
            lws_callback_on_writable(wsi)
        }
    }

    /// `LWS_CALLBACK_*_WRITEABLE`: writes queued frames until the socket would block, several small ones of a
    /// server in one write (``takeNext()``). Returns -1 to close.
    ///
    /// Whether the socket takes more (`lws_send_pipe_choked`, a `poll()` system call) is asked only before a
    /// second write: a WRITEABLE that writes one message (every request and answer of a sequential caller) makes
    /// one system call, the write itself.
    func writeable(_ wsi: OpaquePointer) -> Int32 {
        if finished || closeAtWriteable { return -1 }
        var wrote = false
        /// After a write: false (and another WRITEABLE asked for) when the socket would block.
        func roomForMore() -> Bool {
            guard wrote, lws_send_pipe_choked(wsi) != 0 else { return true }
            lws_callback_on_writable(wsi)
            return false
        }
        while true {
            if current == nil, wrote, !probeDue, !keepAlivePingDue, !hasQueued() { break }
            // A due PING (round-trip probe or keep-alive; the probe's serves both) goes out between messages, never
            // between the fragments of one.
            if current == nil, probeDue || keepAlivePingDue, shared.withLock({ $0.requestedClose == nil }) {
                guard roomForMore() else { return 0 }
                if !(probeDue ? writeProbe(wsi) : writeKeepAlivePing(wsi)) { return -1 }
                keepAlivePingDue = false
                wrote = true
            }
            guard roomForMore() else { return 0 }
            if current == nil {
                switch takeNext() {
                case nil:
                    break
                case .single(let frame)?:
                    current = frame
                case .batch(let batch)?:
                    if !write(batch: batch, on: wsi) { return -1 }
                    wrote = true
                    continue
                }
            }
            guard let frame = current else { break }
            let total = frame.size
            let chunk = min(limits.maxFrameSize, total - writeOffset)
            let isStart = writeOffset == 0
            let isEnd = writeOffset + chunk == total
            let kind = frame.message.isBinary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT
            let flags = lws_write_ws_flags(Int32(kind.rawValue), isStart ? 1 : 0, isEnd ? 1 : 0)
            let offset = writeOffset
            // The fragment goes to the loop's scratch buffer, behind its LWS_PRE headroom: lws writes the frame
            // header there and masks a client's payload in place, never touching the shared message.
            let written = loop.writeScratch.withPayload(count: chunk) { start in
                frame.message.copyPayload(from: offset, count: chunk, to: start)
                return lws_write(wsi, start, chunk, lws_write_protocol(rawValue: UInt32(flags)))
            }
            if written < chunk { return -1 }
            wrote = true
            if isEnd {
                current = nil
                writeOffset = 0
                shared.withLock { $0.outboundBytes -= total }
                frame.written?(nil)
            } else {
                writeOffset += chunk
            }
        }
        if let close = shared.withLock({ $0.requestedClose }) {
            // What lws still holds of the last write goes out before the close frame: closing now would drop it,
            // and the close frame with it (a member that reads again must see its 4410).
            guard roomForMore() else { return 0 }
            localClose = localClose ?? close
            var bytes = Array(close.reason.utf8.prefix(123))
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(close.code)), &bytes, bytes.count)
            return -1
        }
        return 0
    }
}
