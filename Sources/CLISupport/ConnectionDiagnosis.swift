import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a WebSocket connection could not be opened, in a user's words: the transport reports only that it failed
/// (libwebsockets loses the socket's errno), so a tool that failed to connect asks the network itself: one TCP
/// connection to the URL's host and port (its errno: "connection refused"), and a plain HTTP request on it, whose
/// answer tells a TLS server from a plain one (`ws://` to a TLS server, `wss://` to a plain one); for `ws://`, when
/// the answer tells nothing, a TLS ClientHello on a second connection.
public enum ConnectionDiagnosis {
    /// What the network says about `url`, or `nil` when it shows nothing wrong (the failure was elsewhere).
    public static func diagnose(_ url: String, timeout: Duration = .seconds(2)) -> String? {
        guard let components = URLComponents(string: url), let host = components.host else { return nil }
        let secure = components.scheme?.lowercased() == "wss"
        let port = components.port ?? (secure ? 443 : 80)
        let probe = Probe(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port,
                          timeout: timeout)
        let tls = "the server speaks TLS; use wss://"
        switch probe.run(sending: Array("GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)) {
        case .failed(let errno):
            return "\(String(cString: strerror(errno)).lowercased()) (\(host):\(port))"
        case .answeredHTTP where secure:
            return "the server does not speak TLS; use ws://"
        case .answeredTLS where !secure:
            return tls
        case .unknown where !secure:
            // A TLS server may close on plain text without a word: greet it as a TLS client does.
            guard case .answeredTLS = probe.run(sending: Probe.clientHello) else { return nil }
            return tls
        case .answeredHTTP, .answeredTLS, .unknown:
            return nil
        }
    }

    /// One probe of a host and port.
    struct Probe {
        enum Outcome {
            /// The TCP connection failed with this errno.
            case failed(Int32)
            /// A plain HTTP request got an HTTP answer.
            case answeredHTTP
            /// The request got a TLS record (a handshake or an alert) back: a TLS server.
            case answeredTLS
            /// Connected, but the answer told nothing (silence, a close).
            case unknown
        }

        let host: String
        let port: Int
        let timeout: Duration

        var milliseconds: Int32 {
            let (seconds, attoseconds) = timeout.components
            return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        }

        /// A minimal TLS 1.2 ClientHello (two AES-GCM and AES-CBC suites, no extensions): any TLS server answers
        /// it with a handshake record or an alert.
        static let clientHello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x2f, 0x01, 0x00, 0x00, 0x2b, 0x03, 0x03]
            + [UInt8](repeating: 0x2a, count: 32) + [0x00, 0x00, 0x04, 0xc0, 0x2f, 0x00, 0x2f, 0x01, 0x00]

        /// Connects, sends `request`, and reads the first bytes of the answer.
        func run(sending request: [UInt8]) -> Outcome {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return .unknown }
            defer { freeaddrinfo(list) }
            let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
            guard fd >= 0 else { return .unknown }
            defer { close(fd) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { return .failed(errno) }
                guard wait(fd, for: Int16(POLLOUT)) else { return .failed(ETIMEDOUT) }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error != 0 { return .failed(error) }
            }
            guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count,
                  wait(fd, for: Int16(POLLIN)) else { return .unknown }
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return .unknown }
            if buffer.prefix(5).elementsEqual(Array("HTTP/".utf8)) { return .answeredHTTP }
            // A TLS record: alert (21) or handshake (22), then a 3.x version.
            if count >= 2, buffer[0] == 21 || buffer[0] == 22, buffer[1] == 3 { return .answeredTLS }
            return .unknown
        }

        private func wait(_ fd: Int32, for events: Int16) -> Bool {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            return poll(&entry, 1, milliseconds) == 1
        }
    }
}
