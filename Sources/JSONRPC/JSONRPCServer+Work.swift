import Logging
import SignalingSupport

extension JSONRPCServer {
    /// Starts the work of a single message. Handlers run in tasks of their own (``InFlightWork``), each under the
    /// handler deadline (``Configuration/handlerTimeout``); the reply leaves exactly once, the handler's or the
    /// timeout error.
    func start(_ work: Work, on connection: any MessageConnection, inflight: InFlightWork) async {
        switch work {
        case .nothing:
            return
        case .reply(let response):
            send(response, on: connection)
        case .replyThenClose(let response):
            send(response, on: connection)
            await connection.close(code: 1000, reason: "session closed")
        default:
            let answer: @Sendable (RPCResponse?) -> Void = { response in
                guard let response else { return }
                self.send(response, on: connection)
                // A handler may ask for the connection to close once its reply is out (Room's leaveRoom).
                if case .run(let request, let session, _) = work, let end = session.takeCloseAfterReply(request.id) {
                    Task { await connection.close(code: end.code, reason: end.reason) }
                }
            }
            await run(work, on: connection, inflight: inflight, answer: answer)
        }
    }

    /// Answers a `.run`, `.attach` or `.notification` through `answer`: inline when its method has a synchronous
    /// handler, else in a task on the executor its placement asks for. The method is looked up once.
    private func run(_ work: Work, on connection: any MessageConnection, inflight: InFlightWork,
                     answer: @escaping @Sendable (RPCResponse?) -> Void) async {
        let route = work.method.flatMap { router.route(for: $0) }
        // docs/operations.md#metrics: a request is counted (and timed) once, when its response is ready; with metrics
        // off this is one test of an optional.
        let measure: Measurement? = if let metrics, case .run = work { Measurement(route?.metrics ?? metrics.unknown) } else { nil }
        if let inline = answerInline(work, route?.inline, measure) { return answer(inline) }
        // The connection's executor for waiting on a run (our code) and for handlers placed there; none (the global
        // one) for every other handler.
        let onConnection: Bool = if case .attach = work { true } else { route?.placement == .connectionExecutor }
        await start(work, route?.handler, inflight: inflight, executor: onConnection ? connection.executor : nil,
                    measure: measure, answer: answer)
    }

    /// A request being measured: its method's instruments and when it started. Of fixed layout (a reference and an
    /// integer, no resilient type), so that the closures that capture it stay cheap with metrics off as well.
    struct Measurement: Sendable {
        let metrics: MethodMetrics
        let start: UInt64

        /// Starts measuring a request to run (not a notification, nor a duplicate) of the method of `metrics`.
        init(_ metrics: MethodMetrics) {
            self.metrics = metrics
            start = MethodMetrics.now()
        }

        func finish(_ response: RPCResponse) { metrics.finish(response, startedAt: start) }
    }

    /// Runs `work` right here when its method has a synchronous handler (``MethodRouter/registerInline(_:_:)``):
    /// no task and no slot. Returns its answer (`.some(nil)` for a notification), or `nil` when it needs a task.
    private func answerInline(_ work: Work, _ inline: MethodRouter<RPCRequestContext>.InlineHandler?,
                              _ measure: Measurement?) -> RPCResponse?? {
        guard let handler = inline else { return nil }
        switch work {
        case .run(let request, let session, let ticket):
            let response = executeInline(request, session: session, handler)
            measure?.finish(response)
            if let ticket { session.responses.finish(ticket, with: response) }
            return .some(response)
        case .notification(let notification, let session):
            runNotificationInline(notification, session: session, handler)
            return .some(nil)
        case .attach, .nothing, .reply, .replyThenClose:
            return nil
        }
    }

    /// Starts the work of a batch: each element in its own slot (so a batch cannot exceed the connection's limit
    /// either); the batch's responses go back as one array once every element is answered, nothing at all when it
    /// held only notifications (JSON-RPC 2.0 §6).
    func startBatch(_ works: [Work], on connection: any MessageConnection, inflight: InFlightWork) async {
        let collector = BatchCollector(count: works.count)
        let finish: @Sendable ([RPCResponse?]) -> Void = { responses in
            Task { await self.finishBatch(works, responses: responses.compactMap { $0 }, on: connection) }
        }
        for (index, work) in works.enumerated() {
            switch work {
            case .nothing: if let all = collector.set(index, nil) { finish(all) }
            case .reply(let response), .replyThenClose(let response):
                if let all = collector.set(index, response) { finish(all) }
            default:
                await run(work, on: connection, inflight: inflight) { response in
                    if let all = collector.set(index, response) { finish(all) }
                }
            }
        }
    }

    /// Runs one `.run`, `.attach` or `.notification` with `handler` (nil: none registered) in a slot of `inflight`,
    /// in a task that prefers `executor`; `answer` gets its response (or `nil`) exactly once: the handler's, or at
    /// the handler deadline the timeout error.
    private func start(_ work: Work, _ handler: MethodRouter<RPCRequestContext>.Handler?, inflight: InFlightWork,
                       executor: (any TaskExecutor)?, measure: Measurement?,
                       answer: @escaping @Sendable (RPCResponse?) -> Void) async {
        switch work {
        case .attach(let run):
            // No deadline of its own: the run it waits for has one.
            await inflight.start({ await run.wait() }, on: executor, finished: answer)
        case .notification(let notification, let session):
            await inflight.start({ await self.runNotification(notification, session: session, handler) }, on: executor,
                                 finished: { answer(nil) }, expired: {
                self.logger.warning("notification handler timed out", metadata: ["method": .bounded(notification.method)])
                answer(nil)
            })
        case .run(let request, let session, let ticket):
            let deliver: @Sendable (RPCResponse) -> Void = { response in
                measure?.finish(response)
                if let ticket { session.responses.finish(ticket, with: response) }
                answer(response)
            }
            await inflight.start({ await self.execute(request, session: session, handler) }, on: executor, finished: deliver,
                                 expired: {
                self.logger.warning("handler timed out", metadata: ["method": .bounded(request.method)])
                deliver(self.timedOut(request, session: session))
            })
        case .nothing, .reply, .replyThenClose:
            preconditionFailure("answered without a handler")
        }
    }

    /// Sends a batch's responses, then closes the connection when the batch held `closeSession` or a handler
    /// asked to close after its reply (every such wish is taken, none lingers; the first decides the code).
    private func finishBatch(_ works: [Work], responses: [RPCResponse], on connection: any MessageConnection) async {
        if !responses.isEmpty { sendText(RPCMessage.batchText(responses.map { .response($0) }), on: connection) }
        var end: ConnectionEnd?
        for work in works {
            switch work {
            case .replyThenClose: end = end ?? ConnectionEnd(code: 1000, reason: "session closed")
            case .run(let request, let session, _):
                if let asked = session.takeCloseAfterReply(request.id) { end = end ?? asked }
            default: break
            }
        }
        if let end { await connection.close(code: end.code, reason: end.reason) }
    }

    /// The answer to a request whose handler passed ``Configuration/handlerTimeout`` (its task is cancelled).
    func timedOut(_ request: RPCRequest, session: ServerSession) -> RPCResponse {
        let timeout = configuration.handlerTimeout ?? .zero
        let error = RPCErrorObject(code: RPCErrorObject.handlerTimedOutCode, message: "handler timed out",
                                   data: ["method": .string(request.method), "timeoutMs": .int(Int(timeout / .milliseconds(1)))])
        return .error(configuration.conventions == .kurento ? KurentoConventions.error(error, sessionId: session.id) : error,
                      id: request.id)
    }
}

/// The responses of one batch, by position, until every element is answered.
final class BatchCollector: Sendable {
    private struct State {
        var responses: [RPCResponse?]
        var missing: Int
    }
    private let state: LockedValue<State>

    init(count: Int) { state = LockedValue(State(responses: Array(repeating: nil, count: count), missing: count)) }

    /// Records element `index`'s response; returns every response once the last element is answered.
    func set(_ index: Int, _ response: RPCResponse?) -> [RPCResponse?]? {
        state.withLock { s in
            s.responses[index] = response
            s.missing -= 1
            return s.missing == 0 ? s.responses : nil
        }
    }
}

extension JSONRPCServer.Work {
    /// The method a handler runs for, for `.run` and `.notification`.
    fileprivate var method: String? {
        switch self {
        case .run(let request, _, _): request.method
        case .notification(let notification, _): notification.method
        case .attach, .nothing, .reply, .replyThenClose: nil
        }
    }
}
