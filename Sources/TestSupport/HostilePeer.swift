import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The server end of one connection of a ``HostileWebSocketServer``: blocking reads and writes of WebSocket
/// frames, used only on that connection's own thread.
public final class HostilePeer: @unchecked Sendable {
    // @unchecked: one instance is used by exactly one thread (its connection's), and never shared.

    /// One request or notification the client sent, read with `JSONSerialization` (not our own parser).
    public struct Message {
        /// The integer id; `nil` for a notification or a response.
        public var id: Int?
        /// The method; `nil` for a response.
        public var method: String?
        /// The whole text.
        public var text: String
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Serializes frame writes, so that another thread (a server's event sender) may write alongside the reading
    /// thread's pong replies without interleaving frames. Uncontended for single-threaded users.
    private let writeLock = NSLock()
    /// The request target of the client's handshake (`/kurento?x=1`), once ``completeHandshake()`` read it.
    public private(set) var requestTarget = ""
    /// The WebSocket opcodes.
    public enum Opcode: UInt8, Sendable {
        case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10
    }

    init(fd: Int32) { self.fd = fd }

    struct PeerClosed: Error, CustomStringConvertible {
        var description: String { "the client closed the connection" }
    }

    // MARK: Handshake

    func completeHandshake() throws {
        var request = ""
        while !request.contains("\r\n\r\n") {
            request += String(decoding: try read(atLeast: 1), as: UTF8.self)
        }
        // "GET <target> HTTP/1.1"
        let requestLine = request.prefix { $0 != "\r" && $0 != "\n" }.split(separator: " ")
        if requestLine.count >= 2 { requestTarget = String(requestLine[1]) }
        let keyLine = request.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
        let key = keyLine.map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
        let accept = Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
        try write(Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(accept)\r\n\r\n").utf8))
    }

    // MARK: Reading

    /// The next text or binary message from the client (as text), answering pings; `nil` once the client sent a
    /// close frame or the socket ended.
    public func nextText() throws -> String? {
        var message: [UInt8] = []
        while true {
            guard let (fin, opcode, payload) = try? readFrame() else { return nil }
            switch opcode {
            case Opcode.ping.rawValue:
                try sendFrame(.pong, payload)
            case Opcode.close.rawValue:
                return nil
            case Opcode.pong.rawValue:
                continue
            default:
                message += payload
                if fin { return String(decoding: message, as: UTF8.self) }
            }
        }
    }

    /// The next request or notification; JSON-RPC `ping` requests (a heartbeat) and a `connect` without a `sessionId`
    /// (a client describing the server, or opening its session: docs/wire-protocol.md#delivery) are answered and
    /// skipped.
    /// Throws when the client closes first.
    public func nextMessage() throws -> Message {
        while true {
            guard let text = try nextText() else { throw PeerClosed() }
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            let message = Message(id: (object["id"] as? NSNumber)?.intValue, method: object["method"] as? String,
                                  text: text)
            if message.method == "ping", let id = message.id {
                try sendText(#"{"jsonrpc":"2.0","id":\#(id),"result":{"value":"pong"}}"#)
                continue
            }
            // A client asking the server to describe itself (docs/wire-protocol.md#server-description) gets what a
            // stock Kurento server answers, as a ping gets its pong.
            if message.method == "connect", (object["params"] as? [String: Any])?["sessionId"] == nil, let id = message.id {
                try sendText(#"{"jsonrpc":"2.0","id":\#(id),"result":{"value":"OK","sessionId":"s"}}"#)
                continue
            }
            return message
        }
    }

    /// Reads until the client's close frame (its code) or the end of the socket (`nil`), answering pings and
    /// discarding messages.
    public func waitForClose() -> UInt16? {
        while true {
            guard let (_, opcode, payload) = try? readFrame() else { return nil }
            if opcode == Opcode.close.rawValue {
                return payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
            }
            if opcode == Opcode.ping.rawValue { try? sendFrame(.pong, payload) }
        }
    }

    /// The next frame as it came (control frames included, nothing answered); `nil` once the socket ended.
    public func nextFrame() -> (opcode: Opcode?, payload: [UInt8])? {
        guard let (_, opcode, payload) = try? readFrame() else { return nil }
        return (Opcode(rawValue: opcode), payload)
    }

    private func readFrame() throws -> (fin: Bool, opcode: UInt8, payload: [UInt8]) {
        let head = try take(2)
        var length = UInt64(head[1] & 0x7F)
        if length == 126 {
            length = try take(2).reduce(0) { $0 << 8 | UInt64($1) }
        } else if length == 127 {
            length = try take(8).reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard length <= 16 << 20 else { throw PeerClosed() }
        let mask = head[1] & 0x80 != 0 ? try take(4) : [0, 0, 0, 0]
        var payload = try take(Int(length))
        for i in payload.indices { payload[i] ^= mask[i % 4] }
        return (head[0] & 0x80 != 0, head[0] & 0x0F, payload)
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { buffer += try read(atLeast: 1) }
        defer { buffer.removeFirst(count) }
        return Array(buffer.prefix(count))
    }

    private func read(atLeast _: Int) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { throw PeerClosed() }
        return Array(chunk.prefix(n))
    }

    // MARK: Writing

    /// Sends `text` as one text frame.
    public func sendText(_ text: String) throws { try sendFrame(.text, Array(text.utf8)) }

    /// Sends one unmasked frame with any opcode and payload, including invalid UTF-8 in a text frame.
    public func sendFrame(_ opcode: Opcode, _ payload: [UInt8], fin: Bool = true) throws {
        try write(Self.header(opcode, length: UInt64(payload.count), fin: fin) + payload)
    }

    /// The header of one unmasked frame of `length` bytes; the payload may follow (or never come).
    public static func header(_ opcode: Opcode, length: UInt64, fin: Bool = true) -> [UInt8] {
        var header: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        if length < 126 {
            header.append(UInt8(length))
        } else if length <= 0xFFFF {
            header += [126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            header.append(127)
            header += (0..<8).map { UInt8(truncatingIfNeeded: length >> UInt64(56 - 8 * $0)) }
        }
        return header
    }

    /// Writes raw bytes; throws once the client has gone.
    public func write(_ bytes: [UInt8]) throws {
        writeLock.lock()
        defer { writeLock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw PeerClosed() }
            offset += n
        }
    }

    /// Sends a close frame with `code`.
    public func sendClose(_ code: UInt16, reason: String = "") throws {
        try sendFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    /// Drops the TCP connection at once, without a close frame (RST: unread data is discarded).
    public func dropConnection() {
        var lingerOff = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &lingerOff, socklen_t(MemoryLayout<linger>.size))
        shutdown(fd, Int32(SHUT_RDWR))
    }
}
