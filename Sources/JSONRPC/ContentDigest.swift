/// What the duplicate-detection cache keeps of a request's content instead of its text (docs/wire-protocol.md#dedupe):
/// a 64-bit hash of its method and of its params as parsed JSON, and their length (the method's and the strings'
/// bytes and the number of values). Key order, spacing and escapes do not change it; `1` and `1.0` do, as they do
/// for ``JSONValue``.
///
/// Requests with equal digests are taken for the same request. The hash is SipHash with the seed Swift draws afresh
/// for every process, so a client can neither predict nor aim for a collision; and the cache is per session, so a
/// collision could only answer a request of the session with another request's response of *that same session*:
/// an attacker can only confuse itself. (An object that repeats a key is hashed with every copy, where parsing keeps
/// the last: such a retry is taken for a new request, and runs again.)
struct ContentDigest: Hashable, Sendable {
    let hash: Int
    let length: Int

    /// The digest of `request`'s method and params.
    init(_ request: RPCRequest) {
        var hasher = Hasher()
        hasher.combine(request.method)
        var length = request.method.utf8.count
        switch request.rawParams?.storage {
        case nil:
            hasher.combine(0 as UInt8)
        case .raw(let text)?:
            Self.digest(text, into: &hasher, length: &length)
        case .value(let value)?:
            Self.digest(value.jsonText, into: &hasher, length: &length)
        }
        hash = hasher.finalize()
        self.length = length
    }

    /// Feeds the JSON `text` (already validated when the envelope was read) into `hasher`.
    private static func digest(_ text: String, into hasher: inout Hasher, length: inout Int) {
        hasher.combine(1 as UInt8)
        do {
            try JSONParser.withParser(text, maxDepth: .max) { parser in
                try parser.digest(depth: 0, into: &hasher, length: &length)
            }
        } catch {
            // Unreachable for params the codec accepted; any text still gets a digest of its own.
            hasher.combine(text)
        }
    }
}
