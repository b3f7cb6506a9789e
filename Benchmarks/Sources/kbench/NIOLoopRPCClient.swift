import Foundation
import NIOCore
import NIOFoundationCompat
import NIOWebSocket

/// The loop-driven SwiftNIO JSON-RPC client (`kbench nio-client`), the NIO client of `make bench`'s ratios: the
/// channel handler itself makes the calls. Each reply that comes in (``channelRead(context:data:)``) is parsed
/// and checked, and triggers the next request's write; one flush per read burst (``channelReadComplete(context:)``).
/// The phases are those of ``EchoClients/measure(_:call:)``: one warm-up call; `window` calls in flight until the
/// deadline, then a drain; one call at a time for half the time (at most 20,000), each round trip sampled from
/// before its request is encoded to after its reply is checked. Or, for callgrind, `calls` sequential calls.
///
/// Every call is honest JSON-RPC: a request encoded afresh with a unique id (``NIOEchoWire``), its response
/// parsed with JSONDecoder, matched to its request by id, its result compared with the params; a reply that
/// fails any of that counts in `errors` and not as a received reply.
final class NIOLoopRPCHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Fired into the pipeline once the upgrade is done: the handler starts with its warm-up call.
    struct Start: Sendable {}

    /// What a run measured.
    struct Outcome: Sendable {
        var rate = 0.0
        var samples = Samples()
        var errors = 0
    }

    private enum Phase {
        case idle, warmUp, pipelined, sequential, counting(remaining: Int), done
    }

    private let run: EchoClients.Run
    private let window: Int
    private let params: [String]
    private let finished: EventLoopPromise<Outcome>
    private let decoder = JSONDecoder()
    private let clock = ContinuousClock()
    private var phase = Phase.idle
    private var outcome = Outcome()
    private var nextID = 1
    /// Requests awaiting their reply, by id: when each was started.
    private var pending: [Int: ContinuousClock.Instant] = [:]
    private var unflushed = false
    private var closeSent = false
    // Pipelined phase.
    private var started: ContinuousClock.Instant
    private var deadline: ContinuousClock.Instant
    private var lastReply: ContinuousClock.Instant
    private var inFlight = 0
    private var received = 0

    /// Connects to `url`, runs `run` with `window` calls in flight when pipelined, and closes.
    static func measure(url: String, run: EchoClients.Run, window: Int, params: [String]) async throws -> Outcome {
        let (channel, finished) = try await NIOWebSocketDial.connect(to: url) { channel in
            let finished = channel.eventLoop.makePromise(of: Outcome.self)
            try channel.pipeline.syncOperations.addHandler(
                NIOLoopRPCHandler(run: run, window: window, params: params, finished: finished))
            return (channel, finished.futureResult)
        }
        channel.pipeline.fireUserInboundEventTriggered(Start())
        let outcome = try await finished.get()
        try await channel.close()
        return outcome
    }

    init(run: EchoClients.Run, window: Int, params: [String], finished: EventLoopPromise<Outcome>) {
        self.run = run
        self.window = window
        self.params = params
        self.finished = finished
        let now = clock.now
        (started, deadline, lastReply) = (now, now, now)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is Start, case .idle = phase else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        phase = .warmUp
        send(context: context)
        flushIfWritten(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        guard frame.opcode == .text else {
            NIOWebSocketDial.answerControl(frame, context: context)
            return
        }
        let sent = check(frame)
        let now = clock.now
        switch phase {
        case .warmUp:
            switch run {
            case .calls(let count) where count > 0:
                phase = .counting(remaining: count)
                send(context: context)
            case .calls:
                finish()
            case .timed(let duration):
                phase = .pipelined
                (started, lastReply) = (now, now)
                deadline = now + .milliseconds(Int(duration * 1000))
                inFlight = window
                for _ in 0..<window { send(context: context) }
            }
        case .pipelined:
            if sent != nil { received += 1 }
            lastReply = now
            if now < deadline {
                send(context: context)
            } else {
                inFlight -= 1
                if inFlight == 0 {
                    outcome.rate = Double(received) / seconds(lastReply - started)
                    guard case .timed(let duration) = run else { return }
                    phase = .sequential
                    deadline = now + .milliseconds(Int(duration * 500))
                    send(context: context)
                }
            }
        case .sequential:
            if let sent { outcome.samples.add(now - sent) }
            if now < deadline, outcome.samples.values.count < 20_000 { send(context: context) } else { finish() }
        case .counting(let remaining):
            if remaining > 1 {
                phase = .counting(remaining: remaining - 1)
                send(context: context)
            } else {
                finish()
            }
        case .idle, .done:
            break
        }
    }

    /// One flush for all the requests the burst of replies just read triggered.
    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfWritten(context: context)
        context.fireChannelReadComplete()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        NIOWebSocketDial.close(context: context, mode: mode, promise: promise, closeSent: &closeSent)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(NIOWebSocketDial.Failure(description: "connection closed"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    /// Encodes the next request and writes it as a masked text frame (flushed at the end of the read burst).
    private func send(context: ChannelHandlerContext) {
        let id = nextID
        nextID += 1
        pending[id] = clock.now
        var payload = context.channel.allocator.buffer(capacity: 320)
        NIOEchoWire.writeRequest(into: &payload, method: "echo", params: params, id: id)
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: payload)
        context.write(Self.wrapOutboundOut(frame), promise: nil)
        unflushed = true
    }

    private func flushIfWritten(context: ChannelHandlerContext) {
        guard unflushed else { return }
        unflushed = false
        context.flush()
    }

    /// When the request this reply answers was started, or nil (counted in `errors`) when the reply does not
    /// parse, is not JSON-RPC 2.0, answers no pending id, carries an error or a result other than the params.
    private func check(_ frame: WebSocketFrame) -> ContinuousClock.Instant? {
        guard let reply = try? decoder.decode(NIOEchoWire.Reply.self, from: frame.unmaskedData),
              reply.jsonrpc == "2.0", let id = reply.id, let sent = pending.removeValue(forKey: id),
              reply.error == nil, reply.result == params
        else {
            outcome.errors += 1
            return nil
        }
        return sent
    }

    private func finish() {
        phase = .done
        finished.succeed(outcome)
    }

    private func fail(_ error: any Error) {
        if case .done = phase { return }
        phase = .done
        finished.fail(error)
    }
}
