/// A message that is JSON but not a valid JSON-RPC 2.0 message: answered with -32600 (JSON-RPC 2.0 §5.1).
public struct RPCInvalidMessage: Error, Sendable, Hashable, CustomStringConvertible {
    /// The id, when one could be read; the error reply carries it (else `null`).
    public var id: RequestID?
    /// What is wrong, for the error's `data` and for logs.
    public var reason: String

    public var description: String { "invalid JSON-RPC message: \(reason)" }
}

/// The decoded form of one inbound text message.
public enum RPCInbound: Sendable {
    /// A single message (or the reason it is invalid).
    case single(Result<RPCMessage, RPCInvalidMessage>)
    /// A batch (JSON-RPC 2.0 §6); may be empty, which is itself an invalid request.
    case batch([Result<RPCMessage, RPCInvalidMessage>])
    /// Not JSON, or nested too deep: -32700.
    case unparsable(JSONParseError)
}

/// Reads JSON-RPC 2.0 messages strictly: `"jsonrpc":"2.0"` exactly, a string `method`, array or object
/// `params`, string/number/null ids (numbers kept as their text, see ``RequestID``), and exactly one of
/// `result`/`error` in a response.
public enum RPCCodec {
    /// Decodes `text`, reading the envelope fully and leaving each `params` as raw text (``RPCParams``).
    public static func decode(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) -> RPCInbound {
        do {
            return try JSONParser.withParser(text, maxDepth: maxDepth) { parser -> RPCInbound in
                switch parser.peek() {
                case UInt8(ascii: "{"):
                    let envelope = try parser.envelope(depth: 0)
                    try parser.expectEnd()
                    return .single(classify(envelope))
                case UInt8(ascii: "["):
                    var elements: [Result<RPCMessage, RPCInvalidMessage>] = []
                    try parser.container(close: UInt8(ascii: "]"), depth: 0) { p in
                        if p.peek() == UInt8(ascii: "{") {
                            elements.append(classify(try p.envelope(depth: 1)))
                        } else {
                            _ = try p.value(depth: 1, build: false)
                            elements.append(.failure(RPCInvalidMessage(id: nil, reason: "batch element is not an object")))
                        }
                    }
                    try parser.expectEnd()
                    return .batch(elements)
                default:
                    _ = try parser.value(depth: 0, build: false)
                    try parser.expectEnd()
                    return .single(.failure(RPCInvalidMessage(id: nil, reason: "message is not an object")))
                }
            }
        } catch let error as JSONParseError {
            return .unparsable(error)
        } catch {
            return .unparsable(JSONParseError(kind: .syntax, offset: 0, reason: "\(error)"))
        }
    }

    /// The members of one message object that JSON-RPC reads; `params` stays raw text (decoded lazily) and other
    /// members are validated but not built. A repeated member keeps its last value, as a dictionary would.
    struct Envelope {
        var jsonrpc: JSONValue?
        var id: JSONValue?
        /// The text of `id` when it is a number, so that the reply can carry back exactly that text.
        var idNumberText: String?
        var method: JSONValue?
        var result: JSONValue?
        var error: JSONValue?
        var rawParams: String?
    }

    static func classify(_ envelope: Envelope) -> Result<RPCMessage, RPCInvalidMessage> {
        var id: RequestID?
        if let text = envelope.idNumberText {
            id = RequestID(numberText: text)
        } else if let idValue = envelope.id {
            guard let parsed = RequestID(json: idValue) else {
                return .failure(RPCInvalidMessage(id: nil, reason: "id must be a string, a number or null"))
            }
            id = parsed
        }
        func invalid(_ reason: String) -> Result<RPCMessage, RPCInvalidMessage> {
            .failure(RPCInvalidMessage(id: id, reason: reason))
        }
        guard envelope.jsonrpc == .string("2.0") else { return invalid("\"jsonrpc\" must be exactly \"2.0\"") }
        if let methodValue = envelope.method {
            guard case .string(let method) = methodValue else { return invalid("method must be a string") }
            var params: RPCParams?
            if let raw = envelope.rawParams {
                guard let first = raw.utf8.first, first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else {
                    return invalid("params must be an array or an object")
                }
                params = RPCParams(raw: raw)
            }
            if let id { return .success(.request(RPCRequest(id: id, method: method, rawParams: params))) }
            return .success(.notification(RPCNotification(method: method, rawParams: params)))
        }
        guard let id else { return invalid("a message without method must be a response with an id") }
        switch (envelope.result, envelope.error) {
        case (let result?, nil):
            return .success(.response(.result(result, id: id)))
        case (nil, let errorValue?):
            guard let error = RPCErrorObject(json: errorValue) else {
                return invalid("error must be an object with an integer code and a string message")
            }
            return .success(.response(.error(error, id: id)))
        default:
            return invalid("a response needs exactly one of result and error")
        }
    }
}

extension JSONParser {
    /// Reads one message object: every member is built except `params`, which is only validated and kept as text.
    mutating func envelope(depth: Int) throws -> RPCCodec.Envelope {
        var envelope = RPCCodec.Envelope()
        try container(close: UInt8(ascii: "}"), depth: depth) { p in
            let key = try p.string(build: true)
            try p.expect(UInt8(ascii: ":"))
            switch key {
            case "params":
                p.skipWhitespace()
                let start = p.index
                _ = try p.value(depth: depth + 1, build: false)
                envelope.rawParams = p.text(start..<p.index)
            case "jsonrpc": envelope.jsonrpc = try p.value(depth: depth + 1, build: true)
            case "id":
                // A number id is kept as its text (validated, not built: `1e400` is a valid id although no
                // Double holds it).
                if let first = p.peek(), first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
                    let start = p.index
                    _ = try p.value(depth: depth + 1, build: false)
                    envelope.id = nil
                    envelope.idNumberText = p.text(start..<p.index)
                } else {
                    envelope.id = try p.value(depth: depth + 1, build: true)
                    envelope.idNumberText = nil
                }
            case "method": envelope.method = try p.value(depth: depth + 1, build: true)
            case "result": envelope.result = try p.value(depth: depth + 1, build: true)
            case "error": envelope.error = try p.value(depth: depth + 1, build: true)
            default: _ = try p.value(depth: depth + 1, build: false)
            }
        }
        return envelope
    }
}
