import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// What both SwiftNIO baseline clients share: the WebSocket upgrade, and the client side of control frames
/// (pongs for pings, the close handshake).
enum NIOWebSocketDial {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to `url` (`ws://host:port/path`) with TCP_NODELAY, upgrades with NIOHTTP1's typed client upgrader
    /// and returns what `upgraded` makes of the channel; `upgraded` runs on the event loop once the WebSocket
    /// frame codec is in the pipeline, and adds the handlers that follow the frame aggregator.
    static func connect<Upgraded: Sendable>(
        to url: String, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        upgraded: @escaping @Sendable (any Channel) throws -> Upgraded
    ) async throws -> Upgraded {
        guard let parsed = URL(string: url), let host = parsed.host, let port = parsed.port else {
            throw Failure(description: "not a ws://host:port URL: \(url)")
        }
        let path = parsed.path.isEmpty ? "/" : parsed.path
        let result = try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgraded?> { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(NIORPC.aggregator())
                            return try upgraded(channel)
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "\(host):\(port)")
                    headers.add(name: "Content-Length", value: "0")
                    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
                    let upgrade = NIOTypedHTTPClientUpgradeConfiguration<Upgraded?>(
                        upgradeRequestHead: head, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(nil) })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: upgrade))
                }
            }
        guard let value = try await result.get() else { throw Failure(description: "\(url) refused the upgrade") }
        return value
    }

    /// Answers a control frame the way a client must: a ping with a masked pong (written and flushed), a close
    /// by closing the channel (whose `close` sends the close frame, ``close(context:mode:promise:closeSent:)``). Other frames are the
    /// caller's.
    static func answerControl(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        switch frame.opcode {
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(NIOAny(pong), promise: nil)
        case .connectionClose:
            context.channel.close(promise: nil)
        default:
            break
        }
    }

    /// A client's `close` of the whole channel: the masked close frame (1000, normal closure) first, once, while
    /// the connection is up; then the channel closes.
    static func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?,
                      closeSent: inout Bool) {
        if mode == .all, !closeSent, context.channel.isActive {
            closeSent = true
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(),
                                       data: context.channel.allocator.buffer(bytes: [0x03, 0xE8]))
            context.writeAndFlush(NIOAny(frame), promise: nil)
        }
        context.close(mode: mode, promise: promise)
    }
}
