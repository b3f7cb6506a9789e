import NIOCore

/// The JSON of the loop-driven NIO client's `echo` calls, as a SwiftNIO user who cares about speed writes it:
/// each request is encoded straight into a ByteBuffer (no JSONEncoder, no intermediate String or Data), its params
/// escaped afresh on every call; each response is parsed for real with JSONDecoder into a typed reply.
enum NIOEchoWire {
    /// `{"jsonrpc":"2.0","method":METHOD,"params":[STRING,…],"id":ID}` appended to `buffer`.
    static func writeRequest(into buffer: inout ByteBuffer, method: String, params: [String], id: Int) {
        buffer.writeStaticString(#"{"jsonrpc":"2.0","method":"#)
        writeString(method, into: &buffer)
        buffer.writeStaticString(#","params":["#)
        for (index, param) in params.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            writeString(param, into: &buffer)
        }
        buffer.writeStaticString(#"],"id":"#)
        buffer.writeString(String(id))
        buffer.writeInteger(UInt8(ascii: "}"))
    }

    /// `string` as a JSON string literal: quote, backslash and control characters escaped, the rest copied as UTF-8
    /// in runs.
    static func writeString(_ string: String, into buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart..<index])))
                switch byte {
                case UInt8(ascii: "\""): buffer.writeStaticString(#"\""#)
                case UInt8(ascii: "\\"): buffer.writeStaticString(#"\\"#)
                case UInt8(ascii: "\n"): buffer.writeStaticString(#"\n"#)
                case UInt8(ascii: "\r"): buffer.writeStaticString(#"\r"#)
                case UInt8(ascii: "\t"): buffer.writeStaticString(#"\t"#)
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    buffer.writeStaticString(#"\u00"#)
                    buffer.writeBytes([hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
                runStart = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart...])))
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    /// A response to an `echo` call, typed as its caller expects it: the result is the params sent.
    struct Reply: Decodable {
        let jsonrpc: String
        let id: Int?
        let result: [String]?
        let error: NIORPC.ErrorObject?
    }
}
