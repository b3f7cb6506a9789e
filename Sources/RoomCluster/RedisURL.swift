public import RoomClusterCore

/// Where a cluster's Redis is: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` (the port 6379 by default).
///
/// The password (and, with a Redis ACL, the user) is the cluster's shared secret: a node that cannot
/// authenticate cannot read or write the cluster's keys and channels.
public struct RedisURL: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address.
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The logical database (`SELECT`), 0 by default.
    public var database: Int
    /// The ACL user, if any (Redis 6 and later).
    public var user: String?
    /// The password, if any.
    public var password: String?

    /// Redis's port, where a URL without one points.
    public static let defaultPort = 6379

    /// Reads `text`; throws ``/RoomClusterCore/ClusterError/badURL(_:)`` naming what is wrong.
    public init(parsing text: String) throws(RedisError) {
        guard text.hasPrefix("redis://") else { throw .badURL("\(text): expected redis://HOST[:PORT][/DB]") }
        var rest = Substring(text.dropFirst("redis://".count))
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let user = credentials[..<colon]
                self.user = user.isEmpty ? nil : String(user)
                password = String(credentials[credentials.index(after: colon)...])
            } else {
                password = String(credentials)
            }
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            guard let number = Int(path), number >= 0 else { throw .badURL("\(text): the database must be a number") }
            database = number
            rest = rest[..<slash]
        }
        var host = rest, port = Self.defaultPort
        if let colon = rest.lastIndex(of: ":") {
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number)
            else { throw .badURL("\(text): expected HOST[:PORT], the port in 1...65535") }
            host = rest[..<colon]
            port = number
        }
        guard !host.isEmpty else { throw .badURL("\(text): no host") }
        self.host = String(host)
        self.port = port
        self.database = database
    }

    /// The URL without its password.
    public var description: String {
        let credentials = user.map { "\($0):***@" } ?? (password == nil ? "" : ":***@")
        return "redis://\(credentials)\(host):\(port)/\(database)"
    }
}
