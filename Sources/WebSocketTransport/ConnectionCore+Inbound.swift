import CLibWebSockets
import DequeModule
import SignalingSupport
import Foundation

/// Inbound path: reassembly and size limit on the service thread, a bounded buffer with watermarks that drive
/// `lws_rx_flow_control`, and the single consumer's `next()` (docs/architecture.md#backpressure).
extension ConnectionCore {
    /// `LWS_CALLBACK_(CLIENT_)RECEIVE`: one chunk of a message. Returns -1 to close.
    func receive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        heard()
        let chunk = UnsafeRawBufferPointer(start: length > 0 ? input : nil, count: input == nil ? 0 : length)
        switch rx.receive(chunk, binary: lws_frame_is_binary(wsi) != 0, final: lws_is_final_fragment(wsi) != 0) {
        case .partial:
            return 0
        case .message(let message):
            deliver(message, wsi)
            return 0
        case .tooBig:
            // Not `return -1` here: lws 4.1.6 frees the client connection twice when RECEIVE fails in the middle
            // of a frame (one 20 MB frame from a hostile server aborted the process with "double free"). The close
            // goes out through WRITEABLE instead, and reading stops meanwhile.
            lws_rx_flow_control(wsi, 0)
            beginClose(code: WebSocketCloseCode.messageTooBig.rawValue,
                       reason: "message exceeds \(limits.maxMessageSize) bytes", flush: false)
            return 0
        case .invalidUTF8:
            return closeNow(wsi, .invalidPayload, "text message is not valid UTF-8")
        }
    }

    /// Sends a close frame with `code` and asks lws to drop the connection (return value of the callback).
    func closeNow(_ wsi: OpaquePointer, _ code: WebSocketCloseCode, _ reason: String) -> Int32 {
        localClose = localClose ?? (code.rawValue, reason)
        var bytes = Array(reason.utf8.prefix(123))
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code.rawValue)), &bytes, bytes.count)
        return -1
    }

    private func deliver(_ message: WebSocketMessage, _ wsi: OpaquePointer) {
        let size = message.byteCount
        let (waiter, pause) = shared.withLock { s -> (CheckedContinuation<WebSocketMessage?, any Error>?, Bool) in
            if let w = s.inboundWaiter {
                s.inboundWaiter = nil
                return (w, false)
            }
            s.inbound.append(message)
            s.inboundBytes += size
            s.peakInboundBytes = max(s.peakInboundBytes, s.inboundBytes)
            guard !s.rxPaused, s.inboundBytes > limits.inboundHighWatermark else { return (nil, false) }
            s.rxPaused = true
            s.pauseCount += 1
            return (nil, true)
        }
        waiter?.resume(returning: message)
        if pause { lws_rx_flow_control(wsi, 0) }
    }

    /// The consumer's next message; nil once the connection has ended and the buffer is drained. A `cancellable`
    /// wait ends with `CancellationError` when its task is cancelled; a reader that is never cancelled (a client's
    /// receive loop) waits without registering a cancellation handler.
    func nextMessage(cancellable: Bool = true) async throws -> WebSocketMessage? {
        // A buffered message is returned without suspending: a continuation resumed at once still re-enqueues the
        // task on its executor, one thread hop per message of a pipelined burst.
        if let (m, resume) = shared.withLock({ popBuffered(&$0) }) {
            if resume { loop.onServiceThreadSoon { [self] in resumeReading() } }
            return m
        }
        guard cancellable else { return try await withCheckedThrowingContinuation { wait(for: $0) } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { wait(for: $0) }
        } onCancel: {
            let waiter = shared.withLock { s -> CheckedContinuation<WebSocketMessage?, any Error>? in
                defer { s.inboundWaiter = nil }
                return s.inboundWaiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Resumes `c` with the next message, the end, or the task's cancellation, or registers it as the waiter.
    private func wait(for c: CheckedContinuation<WebSocketMessage?, any Error>) {
        enum Outcome { case message(WebSocketMessage, resume: Bool), ended, cancelled, wait }
        let outcome = shared.withLock { s -> Outcome in
            if let (m, resume) = popBuffered(&s) { return .message(m, resume: resume) }
            if case .closed = s.phase { return .ended }
            // Cancelled before we could register: onCancel already ran and found no waiter.
            if Task.isCancelled { return .cancelled }
            precondition(s.inboundWaiter == nil, "a WebSocket connection's messages have a single consumer")
            s.inboundWaiter = c
            return .wait
        }
        switch outcome {
        case .message(let m, let resume):
            if resume { loop.onServiceThreadSoon { [self] in resumeReading() } }
            c.resume(returning: m)
        case .ended: c.resume(returning: nil)
        case .cancelled: c.resume(throwing: CancellationError())
        case .wait: break
        }
    }

    /// Takes the oldest buffered message, and says whether reading should resume (the buffer fell below the low
    /// watermark while paused). Call with the lock held.
    private func popBuffered(_ s: inout Shared) -> (WebSocketMessage, resume: Bool)? {
        guard let m = s.inbound.popFirst() else { return nil }
        s.inboundBytes -= m.byteCount
        let resume = s.rxPaused && !s.resumeRequested && s.inboundBytes <= limits.inboundLowWatermark
        if resume { s.resumeRequested = true }
        return (m, resume)
    }

    /// Service thread: re-enables reading after the consumer drained below the low watermark.
    private func resumeReading() {
        let resume = shared.withLock { s -> Bool in
            s.resumeRequested = false
            guard s.rxPaused else { return false }
            s.rxPaused = false
            return true
        }
        if resume, let wsi, !finished { lws_rx_flow_control(wsi, 1) }
    }
}
