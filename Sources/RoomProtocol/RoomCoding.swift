import Foundation
import JSONRPC

/// The one place where Room values meet JSON: decoding with a ``RoomDecodingError`` that names the member at
/// fault, and encoding that cannot fail for the plain value types of this module.
enum RoomCoding {
    /// Decodes `json` as `T`; absent JSON decodes like `null`.
    static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue?, context: String)
        throws(RoomDecodingError) -> T
    {
        do {
            return try (json ?? .null).decode(as: T.self)
        } catch let error as DecodingError {
            throw translate(error, context: context)
        } catch {
            throw RoomDecodingError(context: context, member: nil, problem: .invalidValue("\(error)"))
        }
    }

    /// The JSON form of a Room value.
    static func encode(_ value: some Encodable) -> JSONValue {
        do {
            return try JSONValue(encoding: value)
        } catch {
            // Room values hold only strings, integers, Booleans, arrays of those and JSONValue, which
            // JSONEncoder always encodes; a failure here is a programming error in this module.
            preconditionFailure("a RoomProtocol value failed to encode: \(error)")
        }
    }

    private static func translate(_ error: DecodingError, context: String) -> RoomDecodingError {
        func member(_ path: [any CodingKey]) -> String? {
            guard !path.isEmpty else { return nil }
            var text = ""
            for key in path {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let ctx):
            return RoomDecodingError(context: context, member: member(ctx.codingPath + [key]), problem: .missing)
        case .typeMismatch(let type, let ctx), .valueNotFound(let type, let ctx):
            let path = member(ctx.codingPath)
            return RoomDecodingError(context: context, member: path,
                                     problem: path == nil ? .notAnObject : .wrongType(expected: describe(type)))
        case .dataCorrupted(let ctx):
            return RoomDecodingError(context: context, member: member(ctx.codingPath),
                                     problem: .invalidValue(ctx.debugDescription))
        @unknown default:
            return RoomDecodingError(context: context, member: nil, problem: .invalidValue("\(error)"))
        }
    }

    /// Reads a decoder's expected type as JSON vocabulary.
    private static func describe(_ type: Any.Type) -> String {
        switch String(describing: type) {
        case "String": "a string"
        case "Int": "an integer"
        case "Bool": "a boolean"
        case "Double", "Float": "a number"
        case let name where name.hasPrefix("Array"): "an array"
        case let name where name.hasPrefix("Dictionary"): "an object"
        case let name: "of type \(name)"
        }
    }
}
