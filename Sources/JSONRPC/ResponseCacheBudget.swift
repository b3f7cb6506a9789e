import SignalingSupport

/// The bytes the duplicate-detection caches of one ``JSONRPCServer`` may hold (docs/wire-protocol.md#dedupe): at most
/// ``perSession`` for one session, at most ``perServer`` for all of them together. Each ``ResponseCache`` counts its
/// finished entries against it and gives their bytes back when it forgets them.
final class ResponseCacheBudget: Sendable {
    /// The bytes one session's cache may hold.
    let perSession: Int
    /// The bytes every session's cache may hold together.
    let perServer: Int
    private let used = LockedValue(0)

    init(perSession: Int, perServer: Int) {
        self.perSession = max(0, perSession)
        self.perServer = max(0, perServer)
    }

    /// No limit: for caches made without a server (tests).
    static var unlimited: ResponseCacheBudget { ResponseCacheBudget(perSession: .max, perServer: .max) }

    /// Counts `bytes` more, unless that would exceed ``perServer``; returns whether it did.
    func reserve(_ bytes: Int) -> Bool {
        used.withLock { used in
            guard bytes <= perServer - used else { return false }
            used += bytes
            return true
        }
    }

    /// Counts `bytes` less.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.withLock { $0 -= bytes }
    }

    /// The bytes counted now, over every session.
    var bytes: Int { used.withLock { $0 } }
}
