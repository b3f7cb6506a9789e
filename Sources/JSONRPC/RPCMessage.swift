/// One JSON-RPC 2.0 message.
public enum RPCMessage: Sendable, Hashable {
    /// A call expecting a response.
    case request(RPCRequest)
    /// A call without response.
    case notification(RPCNotification)
    /// The answer to a request.
    case response(RPCResponse)

    /// The message as compact JSON text.
    public var jsonText: String {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.output
    }

    func write(to writer: inout JSONWriter) {
        writer.write(raw: "{\"jsonrpc\":\"2.0\"")
        switch self {
        case .request(let r):
            writer.write(raw: ",")
            writer.write(key: "id")
            writer.write(id: r.id)
            writeCall(method: r.method, params: r.rawParams, to: &writer)
        case .notification(let n):
            writeCall(method: n.method, params: n.rawParams, to: &writer)
        case .response(let r):
            writer.write(raw: ",")
            writer.write(key: "id")
            writer.write(id: r.id)
            writer.write(raw: ",")
            switch r.outcome {
            case .success(let value):
                writer.write(key: "result")
                writer.write(value)
            case .failure(let error):
                writer.write(key: "error")
                writer.write(error.json)
            }
        }
        writer.write(raw: "}")
    }

    private func writeCall(method: String, params: RPCParams?, to writer: inout JSONWriter) {
        writer.write(raw: ",")
        writer.write(key: "method")
        writer.write(string: method)
        if let params {
            writer.write(raw: ",")
            writer.write(key: "params")
            params.write(to: &writer)
        }
    }

    /// Several messages as one batch array (JSON-RPC 2.0 §6).
    public static func batchText(_ messages: [RPCMessage]) -> String {
        var writer = JSONWriter(capacity: 64 * messages.count)
        writer.write(raw: "[")
        for (i, message) in messages.enumerated() {
            if i > 0 { writer.write(raw: ",") }
            message.write(to: &writer)
        }
        writer.write(raw: "]")
        return writer.output
    }
}
