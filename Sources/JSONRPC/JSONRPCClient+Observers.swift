import SignalingSupport

extension JSONRPCClient {
    /// Records a state change and hands it to the observers and ``connectionStates``. It is queued under the lock,
    /// so that they see changes in the order they happened, and delivered outside it (issue 16): an observer may
    /// call the client.
    func setState(_ new: ConnectionState) {
        let observers = stateObservers.withLock { $0 }
        let runNow = state.withLock { s -> Bool in
            s.connectionState = new
            return callbacks.enqueue { [stateHub] in
                for observer in observers { observer(new) }
                stateHub.publish(new)
            }
        }
        if runNow { callbacks.runQueued() }
    }

    /// Registers `observer`, called with every later connection-state change, in order, before the change is
    /// published on ``connectionStates``. It is for layers built on this client that keep state in one order with
    /// the notifications: state observers, notification observers (``observeNotifications(_:)``) and `apply`
    /// closures (``call(_:params:timeout:applying:)``) run one at a time, in the order their causes happened. A
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

    /// Registers `observer`, called for every notification, in wire order, before the notification is published on
    /// ``notifications`` and before any later message is handled. It is for layers built on this client that keep
    /// state from notifications (DESIGN §2: state is updated before the event is published); it runs one at a time
    /// with the state observers (``observeConnectionStates(_:)``) and `apply` closures, in the order their causes
    /// happened.
    ///
    /// It runs on no particular thread and never under a lock of the client, so it may read the client and call it
    /// (a call through the completion-closure face, or in a task). It must be quick and must not block: while it
    /// runs, the reading of the connection waits. Observers cannot be removed.
    public func observeNotifications(_ observer: @escaping @Sendable (RPCNotification) -> Void) {
        notificationObservers.withLock { $0.append(observer) }
    }
}
