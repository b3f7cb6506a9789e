import Foundation
import SignalingSupport

extension KurentoMediaServerDouble {
    /// Handles one parsed frame on its connection's reader thread and returns the reply to send (`nil`: none).
    func handle(_ message: Any, on socket: Socket) -> String? {
        // KMS: JRH `checkProtocol`: not an object (a JSON batch array included), no `"jsonrpc":"2.0"`, a `method`
        // that is missing or not a string, or an array / object `id` → -32600 `Invalid JSON-RPC request.`, id null,
        // no data.
        let invalid = Self.errorText(
            id: NSNull(), RequestFailure(code: -32600, message: "Invalid JSON-RPC request.", type: nil))
        guard let request = message as? [String: Any], Self.kind(of: request["jsonrpc"]) == .string,
              request["jsonrpc"] as? String == "2.0", Self.kind(of: request["method"]) == .string,
              let method = request["method"] as? String
        else { return invalid }
        let hasID = request.keys.contains("id")
        if hasID, [.array, .object].contains(Self.kind(of: request["id"])) { return invalid }
        let operation = method == "invoke" ? (request["params"] as? [String: Any])?["operation"] as? String : nil
        // The double's fault: a slow media server. The request waits, then runs (so a late create really creates its
        // object late); the socket's later requests wait behind it, as websocketpp handles one frame at a time.
        switch delay(method: method, operation: operation) {
        case .duration(let duration)?: Thread.sleep(forTimeInterval: Self.seconds(duration))
        case .gate(let gate)?: gate.block()
        case nil: break
        }
        return operationLock.withLock { _ in
            process(method: method, id: request["id"] ?? NSNull(), hasID: hasID, params: request["params"],
                    operation: operation, on: socket)
        }
    }

    /// Runs one well-formed request under the operation lock: session injection, the request cache, the method,
    /// the reply, and the socket's session pairing.
    private func process(
        method: String, id: Any, hasID: Bool, params rawParams: Any?, operation: String?, on socket: Socket
    ) -> String? {
        // A request read from a connection of a process that has since "restarted" dies with it.
        let current = state.withLock { !$0.stopped && $0.world.epoch == socket.epoch }
        guard current else { return nil }
        var params = rawParams
        // KMS: SM7 `ServerMethods::process` → `injectSessionId`: a request without sessionId gets the session tied to
        // its socket (WST7 `processMessage`), `params` being created when missing.
        if let session = state.withLock({ $0.sessionOfSocket[socket.id] }) {
            if Self.kind(of: params) == .null { params = [String: Any]() }
            if var object = params as? [String: Any], object["sessionId"] == nil {
                object["sessionId"] = session
                params = object
            }
        }
        let requestSession = (params as? [String: Any])?["sessionId"] as? String
        // KMS: SM7 `preProcess` (RC): a request with an id and a sessionId (maybe injected) that was answered within
        // the cache's lifetime gets the stored reply, without running again.
        let key = hasID ? requestSession.map { CacheKey(session: $0, requestID: Self.cacheID(id)) } : nil
        if let key, let hit = cachedReply(key) {
            state.withLock { s in
                s.replayedRequests += 1
                if let session = hit.resultSession { tie(socket, to: session, in: &s) }
            }
            return hit.text
        }
        let outcome = run(method, params: params, operation: operation)
        let text: String
        var resultSession: String?
        switch outcome {
        case nil:
            // KMS: JRH `process`: an unregistered method → -32601 `Method not found.`, no data.
            text = Self.errorText(id: hasID ? id : NSNull(),
                                  RequestFailure(code: -32601, message: "Method not found.", type: nil))
        case .failure(let failure)?:
            text = Self.errorText(id: hasID ? id : NSNull(), failure)
        case .success(let result)?:
            if hasID {
                text = Self.resultText(id: id, result)
                resultSession = result.sessionID
            } else {
                // KMS: JRH `process`: a notification still runs, and its would-be result comes back as the data of a
                // -32000 error with id null.
                text = Self.serialize([
                    "id": NSNull(), "jsonrpc": "2.0",
                    "error": ["code": -32000, "message": "Ignoring response because of a notification request",
                              "data": result.json] as [String: Any],
                ])
            }
        }
        state.withLock { s in
            // KMS: SM7 `postProcess`: every reply to a request with an id is stored, success or error, under
            // `result.sessionId` or else `params.sessionId`; a request with no session anywhere is not cached.
            if hasID, let session = resultSession ?? requestSession {
                s.world.store(CachedReply(text: text, resultSession: resultSession,
                                          expires: ContinuousClock.now + configuration.requestCacheTTL),
                              for: CacheKey(session: session, requestID: Self.cacheID(id)))
            }
            // KMS: SM7 `process` returns `result.sessionId`; WST7 `storeConnection` ties the socket to it.
            if let resultSession { tie(socket, to: resultSession, in: &s) }
        }
        return text
    }

    /// Runs `method`; `nil` when no such method is registered (SM7 constructor `handler.addMethod`).
    private func run(_ method: String, params: Any?, operation: String?) -> Result<MethodResult, RequestFailure>? {
        let known = ["connect", "create", "invoke", "subscribe", "unsubscribe", "release", "ref", "unref", "keepAlive",
                     "describe", "transaction", "ping", "closeSession"]
        guard known.contains(method) else { return nil }
        state.withLock { s in
            s.counts.methods[method, default: 0] += 1
            if let operation { s.counts.operations[operation, default: 0] += 1 }
        }
        do throws(RequestFailure) {
            switch method {
            case "ping": return .success(ping(params))
            case "connect": return .success(try connect(params))
            case "keepAlive": return .success(try keepAlive(params))
            case "closeSession": return .success(try closeSession(params))
            case "create": return .success(try create(params))
            case "invoke": return .success(try invoke(params))
            case "subscribe": return .success(try subscribe(params))
            case "unsubscribe": return .success(try unsubscribe(params))
            case "release": return .success(try release(params))
            case "describe": return .success(try describe(params))
            default:
                // The double's one known gap: `ref`, `unref` and `transaction` (SM7 implements them).
                throw .kurento(40006, "NOT_IMPLEMENTED", "not implemented by the double")
            }
        } catch {
            return .failure(error)
        }
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
