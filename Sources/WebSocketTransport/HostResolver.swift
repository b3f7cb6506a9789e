import Dispatch
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// Turns a host name into an address to dial, off the event loop's service thread.
///
/// Debian's libwebsockets 4.1.6 has no asynchronous DNS: a name handed to it is resolved with a blocking
/// `getaddrinfo` on the one service thread, freezing every connection of the process while a resolver is slow.
/// So names are resolved before lws sees them (IP literals skip resolution), within the connection's
/// ``WebSocketClientConfiguration/handshakeTimeout``, and lws is given the address; the `Host` header, TLS SNI
/// and certificate checks still use the name from the URL.
public struct HostResolver: Sendable {
    /// Returns the addresses of `host` (numeric IPv4 or IPv6 text), preferred first.
    public var resolve: @Sendable (_ host: String) async throws -> [String]

    /// A resolver from a closure (tests inject one that hangs, or maps names to 127.0.0.1).
    public init(_ resolve: @escaping @Sendable (_ host: String) async throws -> [String]) {
        self.resolve = resolve
    }

    /// The system resolver: `getaddrinfo` on a Dispatch worker (never the cooperative pool, which a blocking
    /// lookup would starve), IPv4 addresses first.
    public static let system = HostResolver { host in
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try lookUp(host) }) }
        }
    }

    /// Whether `host` is an IPv4 or IPv6 literal (nothing to resolve).
    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    private static func lookUp(_ host: String) throws -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, nil, &hints, &list)
        guard rc == 0, let list else {
            throw TransportError.connectFailed("cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var v4: [String] = [], v6: [String] = []
        var node: UnsafeMutablePointer<addrinfo>? = list
        while let entry = node {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0,
                           NI_NUMERICHOST) == 0 {
                let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if entry.pointee.ai_family == AF_INET6 { v6.append(address) } else { v4.append(address) }
            }
            node = entry.pointee.ai_next
        }
        var seen = Set<String>()
        let all = (v4 + v6).filter { seen.insert($0).inserted }
        guard !all.isEmpty else { throw TransportError.connectFailed("cannot resolve \(host): no address") }
        return all
    }
}

extension HostResolver {
    /// The address to dial for `host`: `host` itself when it is an IP literal, else the first address the resolver
    /// returns within `deadline` (the connection's whole handshake budget; then
    /// ``TransportError/handshakeTimeout(_:)``).
    func address(of host: String, within deadline: Duration) async throws -> String {
        if Self.isAddress(host) { return host }
        let outcome = LockedValue<CheckedContinuation<String, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                // A task cancelled before this point ran its handler with nothing to resume: end here instead.
                let cancelled = outcome.withLock { pending -> Bool in
                    if Task.isCancelled { return true }
                    pending = continuation
                    return false
                }
                if cancelled {
                    continuation.resume(throwing: TransportError.connectFailed("cancelled"))
                    return
                }
                @Sendable func finish(_ result: Result<String, any Error>) {
                    outcome.withLock { pending in defer { pending = nil }; return pending }?.resume(with: result)
                }
                let timer = SystemClock().schedule(after: deadline) { finish(.failure(TransportError.handshakeTimeout(deadline))) }
                Task {
                    let result = await Result(catching: { () async throws -> String in
                        guard let first = try await resolve(host).first else {
                            throw TransportError.connectFailed("cannot resolve \(host): no address")
                        }
                        return first
                    })
                    timer.cancel()
                    finish(result)
                }
            }
        } onCancel: {
            outcome.withLock { pending in defer { pending = nil }; return pending }?
                .resume(throwing: TransportError.connectFailed("cancelled"))
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing body.
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
