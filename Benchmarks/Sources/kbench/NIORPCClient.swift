import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOPosix
import NIOWebSocket

/// The async-caller SwiftNIO client (`kbench nio-async-client`, the second NIO row of `make bench`): a WebSocket
/// upgrade (``NIOWebSocketDial``), then JSON-RPC calls whose requests are encoded by JSONEncoder in the caller's
/// task and written (and flushed) to the channel one by one; the channel's handler decodes each response with
/// JSONDecoder on the event loop and completes the caller's promise by id. `call` is async, like our
/// ``JSONRPC/JSONRPCClient``'s. The loop-driven client, ``NIOLoopRPCHandler``, is the stronger baseline.
final class NIORPCClient: Sendable {
    let channel: any Channel
    private let encoder = JSONEncoder()
    private let lastID = NIOLockedValueBox(0)

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Connects to `url` (`ws://host:port/path`) and completes the WebSocket upgrade.
    static func connect(to url: String,
                        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> NIORPCClient {
        let channel = try await NIOWebSocketDial.connect(to: url, group: group) { channel in
            try channel.pipeline.syncOperations.addHandler(NIORPCClientHandler())
            return channel
        }
        return NIORPCClient(channel: channel)
    }

    /// Calls `method` and returns its result; a JSON-RPC error object throws.
    func call(_ method: String, params: NIORPC.Value) async throws -> NIORPC.Value {
        let id = lastID.withLockedValue { value in
            value += 1
            return value
        }
        let request = NIORPC.Request(method: method, params: params, id: .number(id))
        let payload = try encoder.encodeAsByteBuffer(request, allocator: channel.allocator)
        let promise = channel.eventLoop.makePromise(of: NIORPC.Response.self)
        // A write that fails (closed channel) never reaches the handler: fail the call here.
        channel.writeAndFlush(NIORPCCall(id: id, payload: payload, response: promise)).whenFailure { error in
            promise.fail(error)
        }
        let response = try await promise.futureResult.get()
        if let error = response.error { throw NIOWebSocketDial.Failure(description: "\(method): \(error.code) \(error.message)") }
        return response.result ?? .null
    }

    /// Closes the connection, a close frame first (``NIORPCClientHandler``).
    func close() async throws {
        try await channel.close()
    }
}

/// An outbound call: the handler remembers `response` under `id` and writes `payload` as a masked text frame.
struct NIORPCCall: Sendable {
    let id: Int
    let payload: ByteBuffer
    let response: EventLoopPromise<NIORPC.Response>
}

/// Matches responses to calls by id, on the event loop.
final class NIORPCClientHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = NIORPCCall
    typealias OutboundOut = WebSocketFrame

    private let decoder = JSONDecoder()
    private var pending: [Int: EventLoopPromise<NIORPC.Response>] = [:]
    private var closeSent = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let call = Self.unwrapOutboundIn(data)
        pending[call.id] = call.response
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: call.payload)
        context.write(Self.wrapOutboundOut(frame), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            guard let response = try? decoder.decode(NIORPC.Response.self, from: frame.unmaskedData),
                  case .number(let id)? = response.id, let promise = pending.removeValue(forKey: id)
            else { return }
            promise.succeed(response)
        default:
            NIOWebSocketDial.answerControl(frame, context: context)
        }
    }

    /// A close of the whole channel sends a close frame (1000, normal closure) before the TCP connection ends.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        NIOWebSocketDial.close(context: context, mode: mode, promise: promise, closeSent: &closeSent)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(NIOWebSocketDial.Failure(description: "connection closed"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failAll(error)
        context.close(promise: nil)
    }

    private func failAll(_ error: any Error) {
        let calls = pending
        pending = [:]
        calls.values.forEach { $0.fail(error) }
    }
}
