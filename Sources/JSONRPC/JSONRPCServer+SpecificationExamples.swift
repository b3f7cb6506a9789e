extension JSONRPCServer {
    /// Registers `echo` (returns its params, `null` without) and the methods behind the request examples of the
    /// JSON-RPC 2.0 specification, §7 (jsonrpc.org/specification): `subtract` (positional `[minuend, subtrahend]`
    /// or named `{minuend, subtrahend}`), `sum` (of its positional numbers), `update`, `get_data` (returns
    /// `["hello", 5]`), `notify_hello` and `notify_sum`.
    ///
    /// For the example echo server, conformance tests and smoke tests against a third-party client; with
    /// ``Conventions/plain`` the server then answers every §7 example exactly as the specification shows. They
    /// only touch memory, so they run inline in the receive loop (``registerInline(_:_:)``).
    public func registerSpecificationExamples() {
        registerInline("subtract") { params, _ in
            if let minuend = params?[0]?.intValue, let subtrahend = params?[1]?.intValue {
                return .int(minuend - subtrahend)
            }
            if let minuend = params?["minuend"]?.intValue, let subtrahend = params?["subtrahend"]?.intValue {
                return .int(minuend - subtrahend)
            }
            throw RPCErrorObject.invalidParams("expected [minuend, subtrahend] or {minuend, subtrahend}")
        }
        registerInline("sum") { params, _ in .int((params?.arrayValue ?? []).compactMap(\.intValue).reduce(0, +)) }
        registerInline("update") { _, _ in nil }
        registerInline("get_data") { _, _ in ["hello", 5] }
        registerInline("notify_hello") { _, _ in nil }
        registerInline("notify_sum") { _, _ in nil }
        registerInline("echo") { params, _ in params ?? .null }
    }
}
