import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The SwiftNIO baseline client (`kbench nio-client`): a WebSocket upgrade with NIOHTTP1's typed client upgrader,
/// then JSON-RPC calls whose requests are encoded by JSONEncoder in the caller's task and written to the channel;
/// the channel's handler decodes each response with JSONDecoder on the event loop and completes the caller's
/// promise by id. `call` is async, like our ``JSONRPC/JSONRPCClient``'s.
final class NIORPCClient: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let channel: any Channel
    private let encoder = JSONEncoder()
    private let lastID = NIOLockedValueBox(0)

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Connects to `url` (`ws://host:port/path`) and completes the WebSocket upgrade.
    static func connect(to url: String,
                        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> NIORPCClient {
        guard let parsed = URL(string: url), let host = parsed.host, let port = parsed.port else {
            throw Failure(description: "not a ws://host:port URL: \(url)")
        }
        let path = parsed.path.isEmpty ? "/" : parsed.path
        let upgraded = try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<(any Channel)?> { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandlers([NIORPC.aggregator(),
                                                                             NIORPCClientHandler()])
                            return channel
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "\(host):\(port)")
                    headers.add(name: "Content-Length", value: "0")
                    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
                    let upgrade = NIOTypedHTTPClientUpgradeConfiguration<(any Channel)?>(
                        upgradeRequestHead: head, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(nil) })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: upgrade))
                }
            }
        guard let channel = try await upgraded.get() else { throw Failure(description: "\(url) refused the upgrade") }
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
        if let error = response.error { throw Failure(description: "\(method): \(error.code) \(error.message)") }
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
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(Self.wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            context.channel.close(promise: nil)  // through this handler's `close`: the close frame is answered
        default:
            break
        }
    }

    /// A close of the whole channel sends a close frame (1000, normal closure) before the TCP connection ends.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, !closeSent, context.channel.isActive {
            closeSent = true
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(),
                                       data: context.channel.allocator.buffer(bytes: [0x03, 0xE8]))
            context.writeAndFlush(Self.wrapOutboundOut(frame), promise: nil)
        }
        context.close(mode: mode, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(NIORPCClient.Failure(description: "connection closed"))
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
