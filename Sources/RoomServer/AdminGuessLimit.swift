/// How many wrong admin tokens one peer address may present (docs/operations.md#the-admin-token):
/// ``OperationsConfiguration/adminGuessLimit``.
///
/// The first ``freeFailures`` wrong tokens are answered 401. Each one after locks the address out, for
/// ``firstLockout`` after the first, doubling with each further one up to ``longestLockout``; while it is locked
/// out, everything it presents (the right token too) is answered 429 with `Retry-After`, without being looked at.
/// The right token, or ``forgetAfter`` without a wrong one, forgets the count. The address is the socket's peer
/// (never `X-Forwarded-For`, which a client writes): behind a reverse proxy every client shares the proxy's.
public struct AdminGuessLimit: Sendable, Hashable {
    /// Wrong tokens answered 401 before the first lockout. Default 5.
    public var freeFailures: Int
    /// The lockout after the first wrong token past ``freeFailures``. Default 1 s.
    public var firstLockout: Duration
    /// The longest lockout. Default 5 minutes.
    public var longestLockout: Duration
    /// How long without a wrong token before the count starts again from 0. Default 15 minutes.
    public var forgetAfter: Duration

    /// Creates a limit; every argument has its default.
    public init(freeFailures: Int = 5, firstLockout: Duration = .seconds(1), longestLockout: Duration = .seconds(300),
                forgetAfter: Duration = .seconds(900)) {
        self.freeFailures = freeFailures
        self.firstLockout = firstLockout
        self.longestLockout = longestLockout
        self.forgetAfter = forgetAfter
    }
}

extension OperationsConfiguration {
    /// The fewest bytes (UTF-8) an admin token may have: ``RoomServer/start(_:)`` refuses a shorter one.
    /// `openssl rand -hex 16` makes a 32-byte token of 128 random bits.
    public static let minimumAdminTokenLength = 16

    /// An ``OperationsConfiguration/adminToken`` shorter than ``OperationsConfiguration/minimumAdminTokenLength``.
    public struct AdminTokenTooShort: Error, CustomStringConvertible {
        /// The length of the token given, in bytes.
        public var length: Int
        public var description: String {
            "the admin token has \(length) bytes, fewer than \(OperationsConfiguration.minimumAdminTokenLength): "
                + "use a long random value (openssl rand -hex 16)"
        }
    }

    /// Throws ``AdminTokenTooShort`` for a configured admin token under the minimum length.
    func checkAdminToken() throws {
        if let adminToken, adminToken.utf8.count < Self.minimumAdminTokenLength {
            throw AdminTokenTooShort(length: adminToken.utf8.count)
        }
    }
}
