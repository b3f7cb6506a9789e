import CHiredis
import RoomClusterCore

/// One Redis reply.
public enum RedisReply: Sendable, Hashable {
    /// A status line (`+OK`).
    case status(String)
    /// An integer.
    case integer(Int)
    /// A bulk string.
    case bulk(String)
    /// A nil bulk string or array.
    case null
    /// An array.
    case array([RedisReply])

    /// The text of a status or bulk reply.
    public var string: String? {
        switch self {
        case .status(let s), .bulk(let s): s
        default: nil
        }
    }

    /// The integer of an integer reply.
    public var int: Int? { if case .integer(let i) = self { i } else { nil } }

    /// The elements of an array reply.
    public var array: [RedisReply]? { if case .array(let a) = self { a } else { nil } }

    /// Converts a hiredis reply; an error reply throws ``/RoomClusterCore/ClusterError/server(_:)``.
    static func from(_ reply: UnsafePointer<redisReply>) throws(RedisError) -> RedisReply {
        let r = reply.pointee
        func text() -> String {
            guard let str = r.str else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: str, count: r.len), as: UTF8.self)
        }
        switch r.type {
        case REDIS_REPLY_STATUS: return .status(text())
        case REDIS_REPLY_STRING: return .bulk(text())
        case REDIS_REPLY_INTEGER: return .integer(Int(r.integer))
        case REDIS_REPLY_NIL: return .null
        case REDIS_REPLY_ERROR: throw .server(text())
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(r.elements)
            for index in 0..<r.elements {
                guard let element = r.element[index] else { elements.append(.null); continue }
                // An error inside an array (EXEC) is kept as the error's text rather than failing the whole reply.
                do { elements.append(try from(element)) } catch { elements.append(.status("\(error)")) }
            }
            return .array(elements)
        default: return .null
        }
    }
}
