import SignalingSupport

/// A namespace of notifications claimed on one ``JSONRPCClient``
/// (``JSONRPCClient/claimNotifications(inNamespace:by:_:)``): while the claim lives, the notifications of that
/// namespace go to its observer alone. Releasing it (dropping the last reference) gives them back to the catch-all
/// observers (``JSONRPCClient/observeNotifications(_:)``), and lets the namespace be claimed again.
public final class NotificationClaim: Sendable {
    /// The claimed namespace: `sharedObject` for `sharedObject.update`, `sharedObject.message`, ….
    public let namespace: String
    private let routes: LockedValue<NotificationRoutes>

    init(_ namespace: String, in routes: LockedValue<NotificationRoutes>) {
        self.namespace = namespace
        self.routes = routes
    }

    deinit { routes.withLock { $0.release(namespace) } }
}
