import SignalingSupport

extension JSONRPCClient {
    /// Runs `body` on the state under the lock. When that changes the machine's observable ``ConnectionState``,
    /// the change is queued for the observers and ``connectionStates`` under the same lock, so that they see the
    /// changes in the order they happened, and delivered outside it: an observer may call the client.
    @discardableResult
    func transition<T>(_ body: (inout State) throws -> T) rethrows -> T {
        let observers = stateObservers.withLock { $0 }
        let (result, runNow) = try state.withLock { s -> (T, Bool) in
            let before = s.machine.connectionState
            let result = try body(&s)
            let after = s.machine.connectionState
            guard after != before else { return (result, false) }
            return (result, callbacks.enqueue { [stateHub] in
                for observer in observers { observer(after) }
                stateHub.publish(after)
            })
        }
        if runNow { callbacks.runQueued() }
        return result
    }

    /// Registers `observer`, called with every later connection-state change, in order, before the change is
    /// published on ``connectionStates``. It is for layers built on this client that keep state in one order with
    /// the notifications: state observers, notification observers (``observeNotifications(_:)``) and `apply`
    /// closures (``call(_:params:timeout:retries:applying:)``) run one at a time, in the order their causes happened. A
    /// drop is reported after every message that arrived before it.
    ///
    /// It runs on no particular thread and never under a lock of the client, so it may read the client and call it
    /// (start a `close()` in a task, say); what that causes, such as a state change, is delivered after it returns.
    /// By then ``connectionState`` may already be newer than the change it is given. It must be quick and must not
    /// block: while it runs, the other callbacks and the reading of the connection wait. Observers cannot be
    /// removed.
    public func observeConnectionStates(_ observer: @escaping @Sendable (ConnectionState) -> Void) {
        stateObservers.withLock { $0.append(observer) }
    }

    /// Registers `observer`, called for every notification that no claim takes
    /// (``claimNotifications(inNamespace:by:_:)``), in wire order, before the notification is published on
    /// ``notifications`` and before any later message is handled. It is for layers built on this client that keep
    /// state from notifications (docs/architecture.md#event-streams: state is updated before the event is published);
    /// it runs one at a time with the state observers (``observeConnectionStates(_:)``) and `apply` closures, in the
    /// order their causes happened.
    ///
    /// It runs on no particular thread and never under a lock of the client, so it may read the client and call it
    /// (a call through the completion-closure face, or in a task). It must be quick and must not block: while it
    /// runs, the reading of the connection waits. Observers cannot be removed.
    public func observeNotifications(_ observer: @escaping @Sendable (RPCNotification) -> Void) {
        notificationRoutes.withLock { $0.observe(observer) }
    }

    /// Claims a namespace of notifications for `observer`: while the returned claim lives, every notification whose
    /// method's namespace (the part before its first `.`: `sharedObject` for `sharedObject.update`) is `namespace`
    /// goes to `observer` alone, and to none of the catch-all observers of ``observeNotifications(_:)``. A layer
    /// that owns an extension's notifications claims them, so that a layer on the same connection that reports
    /// unknown notifications does not see them: a `SharedObjectClient` on a `RoomClient`'s connection claims
    /// `sharedObject`, and `RoomEvent.customNotification` carries only what nobody claimed (docs/architecture.md#callbacks).
    /// ``notifications`` still carries every notification as received.
    ///
    /// ```swift
    /// let claim = client.claimNotifications(inNamespace: "game", by: "GameClient") { note in game.apply(note) }
    /// ```
    ///
    /// `observer` runs as the catch-all observers do: in wire order, one at a time with the other callbacks, on no
    /// particular thread and never under a lock of the client; it must be quick and must not block. The claim covers
    /// the notifications handled after it is made. Keep it as long as its consumer lives: releasing it (dropping the
    /// last reference) gives the namespace back to the catch-all observers and lets it be claimed again.
    ///
    /// - Parameters:
    ///   - namespace: one non-empty name without a `.`.
    ///   - consumer: who claims it, named in the message when the namespace is claimed twice.
    ///   - observer: called with each notification of the namespace.
    /// - Precondition: `namespace` is a namespace (not empty, no `.`) and no live claim holds it on this client. One
    ///   consumer per namespace: a second claim is a programmer error and stops the program with a message naming
    ///   both consumers, rather than sharing the namespace silently.
    public func claimNotifications(inNamespace namespace: String, by consumer: String,
                                   _ observer: @escaping @Sendable (RPCNotification) -> Void) -> NotificationClaim {
        notificationRoutes.withLock { $0.claim(namespace, by: consumer, observer) }
        return NotificationClaim(namespace, in: notificationRoutes)
    }
}
