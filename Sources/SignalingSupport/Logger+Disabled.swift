public import Logging

extension Logger {
    /// A logger labelled `label` that discards every message: the default logger of every client, server and event
    /// loop in the package, so that nothing is logged until the application passes a logger of its own.
    public static func disabled(label: String) -> Logger {
        Logger(label: label, factory: { _ in SwiftLogNoOpLogHandler() })
    }
}
