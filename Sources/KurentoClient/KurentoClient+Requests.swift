import SignalingSupport
import CoreMetrics
public import JSONRPC
import Logging

/// The Kurento Protocol's requests (docs/kurento.md#wire), each with the session's `sessionId`.
extension KurentoClient {
    /// Creates an object of `type` (`MediaPipeline`, `WebRtcEndpoint`, `PassThrough`, …) with `constructorParams`
    /// (`create`) and returns its id.
    ///
    /// When the answer takes longer than `timeout` (default ``Configuration/requestTimeout``) the call throws
    /// ``KurentoError/timeout(operation:after:)``, but the request stays on the wire for
    /// ``Configuration/lateAnswerWindow``: the object a late answer names is released, so a slow KMS leaks nothing.
    public func create(_ type: String, constructorParams: [String: JSONValue] = [:], timeout: Duration? = nil)
        async throws(KurentoError) -> String
    {
        let timeout = timeout ?? configuration.requestTimeout
        let sessionId = try await session()
        var params = KurentoProtocol.createParams(type: type, constructorParams: constructorParams)
        params["sessionId"] = .string(sessionId)
        let started = clock.now
        let lifetime = max(timeout, configuration.lateAnswerWindow)
        let wire = Task { [rpc] () async -> Result<JSONValue, any Error> in
            do {
                return .success(try await rpc.call(KurentoProtocol.create, params: .object(params), timeout: lifetime))
            } catch {
                return .failure(error)
            }
        }
        switch await race(wire, within: timeout, on: clock) {
        case .finished(.success(let result)):
            metrics?.duration.recordNanoseconds(Self.nanoseconds(clock.now - started))
            let id = try KurentoProtocol.objectId(of: result, operation: "create \(type)")
            created(id, type: type)
            return id
        case .finished(.failure(let error)):
            throw failure(error, operation: "create \(type)", timeout: timeout)
        case .timedOut:
            releaseWhenAnswered(wire, type: type)
            throw failure(KurentoError.timeout(operation: "create \(type)", after: timeout),
                          operation: "create \(type)", timeout: timeout)
        case .cancelled:
            releaseWhenAnswered(wire, type: type)
            throw KurentoError.cancelled
        }
    }

    /// Invokes `operation` on `object` with `params` (`invoke`) and returns its value: `null` for a void operation.
    public func invoke(_ object: String, _ operation: String, _ params: [String: JSONValue]? = nil,
                       timeout: Duration? = nil) async throws(KurentoError) -> JSONValue {
        let result = try await request(
            KurentoProtocol.invoke, KurentoProtocol.invokeParams(object: object, operation: operation,
                                                                 operationParams: params),
            label: operation, timeout: timeout)
        return KurentoProtocol.value(of: result)
    }

    /// Releases `object` (`release`): KMS releases it for every session, and a pipeline with its elements. An
    /// object KMS no longer has is not an error. Subscriptions to it (and to a pipeline's elements) end.
    public func release(_ object: String, timeout: Duration? = nil) async throws(KurentoError) {
        defer { released(object) }
        _ = try await request(KurentoProtocol.release, KurentoProtocol.releaseParams(object: object),
                              label: "release", timeout: timeout)
    }

    /// Sends `calls` back to back without waiting in between (docs/kurento.md#round-trips): KMS processes one
    /// connection's requests in order, so each sees the effects of those before it, and the whole sequence costs one
    /// round trip. Each call completes on its own (one that fails does not stop the ones after it, which are on the
    /// wire already); the outcomes come back in order.
    public func send(_ calls: [KurentoCall], timeout: Duration? = nil) async throws(KurentoError) -> [KurentoCallOutcome] {
        guard !calls.isEmpty else { return [] }
        let timeout = timeout ?? configuration.requestTimeout
        let sessionId = try await session()
        var wire: [JSONRPCClient.PipelinedCall] = []
        var plan: [CallPlan] = []
        for call in calls {
            switch call.kind {
            case .invoke(let object, let operation, let params):
                plan.append(.wire(wire.count, label: operation))
                wire.append(Self.wireCall(KurentoProtocol.invoke, KurentoProtocol.invokeParams(
                    object: object, operation: operation, operationParams: params), sessionId))
            case .release(let object):
                plan.append(.release(wire.count, object))
                wire.append(Self.wireCall(KurentoProtocol.release, KurentoProtocol.releaseParams(object: object),
                                          sessionId))
            case .subscribe(let key, let handler):
                let subscriber = addHandler(handler, to: key)
                if subscriber.isFirst {
                    plan.append(.subscribe(key, subscriber, wire: wire.count))
                    wire.append(Self.wireCall(KurentoProtocol.subscribe, KurentoProtocol.subscribeParams(
                        object: key.object, type: key.type), sessionId))
                } else {
                    plan.append(.subscribe(key, subscriber, wire: nil))
                }
            }
        }
        let started = clock.now
        let results = await rpc.callPipelined(wire, timeout: timeout)
        metrics?.duration.recordNanoseconds(Self.nanoseconds(clock.now - started))
        var outcomes: [KurentoCallOutcome] = []
        for step in plan {
            switch step {
            case .wire(let index, let label):
                outcomes.append(outcome(of: results[index], label: label, timeout: timeout))
            case .release(let index, let object):
                released(object)
                outcomes.append(outcome(of: results[index], label: "release", timeout: timeout))
            case .subscribe(let key, let subscriber, let index):
                if let index {
                    confirm(key, with: results[index].mapError { failure($0, operation: "subscribe \(key.type)",
                                                                          timeout: timeout) })
                }
                outcomes.append(await subscribed(key, subscriber))
            }
        }
        return outcomes
    }

    /// One request with the session's id, as a `call`.
    func request(_ method: String, _ params: [String: JSONValue], label: String, timeout: Duration?)
        async throws(KurentoError) -> JSONValue
    {
        let timeout = timeout ?? configuration.requestTimeout
        let sessionId = try await session()
        var params = params
        params["sessionId"] = .string(sessionId)
        let started = clock.now
        do {
            let result = try await rpc.call(method, params: .object(params), timeout: timeout)
            metrics?.duration.recordNanoseconds(Self.nanoseconds(clock.now - started))
            return result
        } catch {
            throw failure(error, operation: label, timeout: timeout)
        }
    }

    /// How `send` handles each call.
    private enum CallPlan {
        case wire(Int, label: String)
        case release(Int, String)
        case subscribe(EventKey, LocalSubscriber, wire: Int?)
    }

    private static func wireCall(_ method: String, _ params: [String: JSONValue], _ sessionId: String)
        -> JSONRPCClient.PipelinedCall
    {
        var params = params
        params["sessionId"] = .string(sessionId)
        return JSONRPCClient.PipelinedCall(method, params: .object(params))
    }

    private func outcome(of result: Result<JSONValue, RPCError>, label: String, timeout: Duration) -> KurentoCallOutcome {
        switch result {
        case .success(let value): .value(KurentoProtocol.value(of: value))
        case .failure(let error): .failed(failure(error, operation: label, timeout: timeout))
        }
    }

    /// `error` as a ``KurentoError``, counted and logged.
    func failure(_ error: any Error, operation: String, timeout: Duration) -> KurentoError {
        let failure = KurentoError(error, operation: operation, timeout: timeout)
        metrics?.count(failure)
        logger.debug("kms request failed", metadata: ["kms": "\(name)", "operation": "\(operation)",
                                                      "error": "\(failure)"])
        return failure
    }

    /// Releases the object of a `create` whose caller gave up, once KMS answers (docs/kurento.md#timeouts).
    private func releaseWhenAnswered(_ wire: Task<Result<JSONValue, any Error>, Never>, type: String) {
        Task { [weak self] in
            guard case .success(let result) = await wire.value, let id = result["value"]?.stringValue,
                  let self else { return }
            self.logger.notice("a late answer created an object nobody waits for; releasing it",
                               metadata: ["kms": "\(self.name)", "type": "\(type)", "object": "\(id)"])
            try? await self.release(id)
        }
    }

    /// Records an object this client created.
    func created(_ id: String, type: String) {
        let added = state.withLock { s in s.objects.updateValue(type, forKey: id) == nil }
        if added { metrics?.objectsChanged(by: 1) }
    }

    /// Forgets `object` (and a pipeline's elements) and ends the subscriptions to them.
    func released(_ object: String) {
        let prefix = object + "/"
        let (removed, handlers) = state.withLock { s -> (Int, [EventHandler]) in
            let before = s.objects.count
            s.objects = s.objects.filter { $0.key != object && !$0.key.hasPrefix(prefix) }
            let gone = s.subscriptions.keys.filter { $0.object == object || $0.object.hasPrefix(prefix) }
            var handlers: [EventHandler] = []
            for key in gone {
                if let subscription = s.subscriptions.removeValue(forKey: key) {
                    handlers += subscription.handlers.values
                    subscription.confirmation.fulfill(.failure(.server(
                        code: KurentoErrorCode.mediaObjectNotFound.rawValue, message: "Object '\(object)' released",
                        type: "MEDIA_OBJECT_NOT_FOUND")))
                }
            }
            return (before - s.objects.count, handlers)
        }
        metrics?.objectsChanged(by: -removed)
        for handler in handlers { handler.end(nil) }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
