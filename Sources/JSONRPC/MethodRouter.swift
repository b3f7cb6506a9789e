import Foundation
import SignalingSupport

/// Maps method names to handlers; shared by the client (server→client requests) and the server.
///
/// A handler returns the result (`nil` for a void result, which Kurento answers with just the sessionId,
/// docs/wire-protocol.md#kurento-conventions) or throws: an ``RPCErrorObject`` (or ``RPCError/remote(_:)``) is sent
/// back as is; anything else becomes an internal error.
public final class MethodRouter<Context: Sendable>: Sendable {
    /// A handler: the request's params (raw until decoded) and the endpoint's context.
    public typealias Handler = @Sendable (RPCParams?, Context) async throws -> JSONValue?
    /// A synchronous handler, run inline where the request was decoded (``registerInline(_:_:)``).
    public typealias InlineHandler = @Sendable (RPCParams?, Context) throws -> JSONValue?
    /// A method's handler, where it runs, its synchronous form when it was registered inline, and its
    /// instruments when the server has metrics (made at registration: a request finds them in this one lookup).
    struct Route {
        let handler: Handler
        let placement: HandlerPlacement
        let inline: InlineHandler?
        let metrics: MethodMetrics?
    }
    private let handlers = LockedValue([String: Route]())
    /// Where the routes' instruments come from (a server's router with metrics on).
    private let metrics: ServerMetrics?

    /// Creates an empty router.
    public init() { metrics = nil }

    /// Creates the router of a server whose instruments are `metrics`.
    init(metrics: ServerMetrics?) { self.metrics = metrics }

    /// Registers (or replaces) the handler of `method`, to run where `placement` says (``HandlerPlacement``).
    public func register(_ method: String, placement: HandlerPlacement = .concurrent, _ handler: @escaping Handler) {
        let route = Route(handler: handler, placement: placement, inline: nil, metrics: metrics?.method(method))
        handlers.withLock { $0[method] = route }
    }

    /// Registers (or replaces) a synchronous handler of `method`, which an endpoint that supports it runs inline,
    /// where it decoded the request: no task, no thread hop. It must return quickly and never block (on a WebSocket
    /// connection it runs on the event loop's service thread), and it cannot be cancelled. Endpoints without an
    /// inline path call it like any other handler.
    public func registerInline(_ method: String, _ handler: @escaping InlineHandler) {
        let route = Route(handler: { params, context in try handler(params, context) }, placement: .connectionExecutor,
                          inline: handler, metrics: metrics?.method(method))
        handlers.withLock { $0[method] = route }
    }

    /// Registers a typed handler: params decode straight from their text into `P` (a failure answers -32602
    /// naming the problem), and the result is encoded from `R`.
    public func register<P: Decodable & SendableMetatype, R: Encodable & SendableMetatype>(
        _ method: String, placement: HandlerPlacement = .concurrent,
        _ handler: @escaping @Sendable (P, Context) async throws -> R
    ) {
        register(method, placement: placement) { params, context in
            let decoded: P = try Self.decode(params)
            return try JSONValue(encoding: try await handler(decoded, context))
        }
    }

    /// Removes the handler of `method`.
    public func unregister(_ method: String) { handlers.withLock { $0[method] = nil } }

    /// The handler of `method`, if any.
    public func handler(for method: String) -> Handler? { handlers.withLock { $0[method]?.handler } }

    /// Everything registered for `method`, in one lookup (the server's path per request).
    func route(for method: String) -> Route? { handlers.withLock { $0[method] } }

    /// Decodes params for a typed handler. Missing params decode from `null`, so optionals and empty structs work.
    static func decode<P: Decodable>(_ params: RPCParams?) throws -> P {
        do {
            return try (params ?? RPCParams(.null)).decode(as: P.self)
        } catch let error as DecodingError {
            throw RPCErrorObject.invalidParams(Self.describe(error))
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing param '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "param '\(path)': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// The error object a thrown error is answered with (`nil` when it is not an RPC error).
    static func errorObject(for error: any Error) -> RPCErrorObject? {
        switch error {
        case let object as RPCErrorObject: object
        case RPCError.remote(let object) as RPCError: object
        default: nil
        }
    }
}

/// Where a method's handler runs.
public enum HandlerPlacement: Sendable, Hashable {
    /// On Swift's global concurrent executor (the default): a handler that blocks, or computes for long, holds up
    /// no other connection and no other request.
    case concurrent
    /// On the executor of the connection the request came on (``MessageConnection/executor``: for WebSocket
    /// connections the service thread that owns the socket), where the server decodes it: receive → handler →
    /// reply needs no thread hop. Only for handlers that never block and return quickly (work on memory, short
    /// locks, `await`s on other code are fine: the task leaves the thread while suspended); a handler that blocks
    /// here stalls every connection of the event loop. On a connection without an executor it runs as
    /// ``concurrent``.
    case connectionExecutor
}
