extension JSONRPCClient {
    /// Calls `method` with Encodable params and decodes the result as `R`. A Kurento-wrapped result
    /// (`{"value": …, "sessionId": …}`, docs/wire-protocol.md#kurento-conventions) is unwrapped when `R` does not
    /// decode from the wrapper. For a result that does not matter (`{}`), ask for ``EmptyResult``.
    ///
    /// `timeout` and `retries` are those of ``call(_:params:timeout:retries:)``.
    /// - Throws: ``RPCError``; ``RPCError/encodingFailed(_:)`` when the params do not encode, and
    ///   ``RPCError/invalidResponse(_:)`` when the result does not decode as `R`.
    public func call<P: Encodable & Sendable, R: Decodable>(
        _ method: String, params: P, as type: R.Type = R.self, timeout: Duration? = nil, retries: Int? = nil
    ) async throws -> R {
        let json: JSONValue
        do { json = try JSONValue(encoding: params) } catch { throw RPCError.encodingFailed("\(error)") }
        return try Self.decodeResult(try await perform(method, params: json, timeout: timeout, retries: retries))
    }

    /// Calls `method` without params and decodes the result as `R` (unwrapping Kurento's `value`); `timeout` and
    /// `retries` are those of ``call(_:params:timeout:retries:)``.
    public func call<R: Decodable>(
        _ method: String, as type: R.Type = R.self, timeout: Duration? = nil, retries: Int? = nil
    ) async throws -> R {
        try Self.decodeResult(try await perform(method, params: nil, timeout: timeout, retries: retries))
    }

    /// `result` decoded as `R`, or ``RPCError/invalidResponse(_:)``.
    static func decodeResult<R: Decodable>(_ result: JSONValue) throws -> R {
        do {
            return try decodeUnwrapping(result)
        } catch {
            throw RPCError.invalidResponse("result \(result.redactingSessionIds.jsonText.prefix(200)) does not decode as \(R.self)")
        }
    }

    /// `value` decoded as `T`, or else its Kurento-unwrapped form (``JSONValue/unwrapped``) decoded as `T`; the
    /// error is that of decoding `value` itself.
    static func decodeUnwrapping<T: Decodable>(_ value: JSONValue) throws -> T {
        do {
            return try value.decode(as: T.self)
        } catch {
            if let inner = try? value.unwrapped.decode(as: T.self) { return inner }
            throw error
        }
    }
}
