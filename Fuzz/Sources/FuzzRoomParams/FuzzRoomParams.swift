import JSONRPC
import RoomProtocol

/// libFuzzer entry point: the first byte picks a Room method (request params and result) or a notification, the
/// rest is JSON text for it, decoded through RoomProtocol's decoders as the server and the client decode them.
///
/// Invariants checked: decoding either succeeds or throws a `RoomDecodingError`, and a request that decodes
/// encodes to params that decode to the same request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoomParams(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = Int(data[0])
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    guard let json = try? JSONParser.parse(text) else { return 0 }
    let methods = RoomMethod.allCases, notifications = RoomNotificationMethod.allCases
    if selector % 2 == 0 {
        let method = methods[(selector / 2) % methods.count]
        if let request = try? RoomRequest(method: method, params: json) {
            guard let again = try? RoomRequest(method: method, params: request.params), again == request else {
                fatalError("\(method) params round trip changed them: \(text)")
            }
        }
        _ = try? RoomResult(method: method, result: json)
    } else {
        _ = try? RoomNotification(method: notifications[(selector / 2) % notifications.count], params: json)
    }
    return 0
}
