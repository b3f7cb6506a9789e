import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The SwiftNIO baseline server (`kbench nio-server`): HTTP/1.1 upgraded to WebSocket (NIOHTTP1 + NIOWebSocket on
/// NIOPosix), then a plain JSON-RPC 2.0 server whose `echo` returns its params, the envelope read and written with
/// JSONDecoder/JSONEncoder. Requests are answered on the event loop as they are read; replies are flushed once per
/// read burst (`channelReadComplete`), the usual NIO idiom.
enum NIORPCServer {
    /// Binds `host` on an ephemeral port; returns the listening channel.
    static func start(host: String = "127.0.0.1",
                      group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> any Channel {
        let upgrader = NIOWebSocketServerUpgrader(
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([NIORPC.aggregator(), NIORPCEchoHandler()])
                }
            }
        )
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                }
            }
            .bind(host: host, port: 0)
            .get()
    }
}

extension NIORPC {
    /// Joins fragmented messages (none of the benchmark's clients fragments, but a server must accept them).
    static func aggregator() -> NIOWebSocketFrameAggregator {
        NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64,
                                    maxAccumulatedFrameSize: 1 << 20)
    }
}

/// Answers each JSON-RPC text message: `echo` with its params, anything else with an error object;
/// notifications get no reply. Pings are answered, a close is returned and ends the connection.
final class NIORPCEchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let decoder = JSONDecoder()
    private let encoder = JSONEncoder()
    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            guard let response = answer(frame.unmaskedData),
                  let payload = try? encoder.encodeAsByteBuffer(response, allocator: context.channel.allocator)
            else { return }
            context.write(Self.wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: payload)), promise: nil)
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(Self.wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            guard !closing else { return context.close(promise: nil) }
            closing = true
            let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)
            context.writeAndFlush(Self.wrapOutboundOut(close)).whenComplete { [channel = context.channel] _ in
                channel.close(promise: nil)
            }
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    private func answer(_ message: ByteBuffer) -> NIORPC.Response? {
        let request: NIORPC.Request
        do {
            request = try decoder.decode(NIORPC.Request.self, from: message)
        } catch {
            return .failure(id: nil, code: -32700, message: "Parse error")
        }
        guard let id = request.id else { return nil }
        guard request.jsonrpc == "2.0" else { return .failure(id: id, code: -32600, message: "Invalid Request") }
        guard request.method == "echo" else { return .failure(id: id, code: -32601, message: "Method not found") }
        return NIORPC.Response(id: id, result: request.params ?? .null)
    }
}
