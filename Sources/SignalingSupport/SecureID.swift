/// Identifier generation.
///
/// Session ids are bearer credentials (docs/architecture.md#identity), so they come from `SystemRandomNumberGenerator`,
/// which on Linux reads the kernel CSPRNG (`getrandom(2)`).
public enum SecureID {
    /// A random identifier of `bits` bits (rounded up to whole bytes, at least 128), as lowercase hex.
    public static func hex(bits: Int = 128) -> String {
        let bytes = randomBytes(count: max(128, bits) / 8 + (bits % 8 == 0 ? 0 : 1))
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `count` bytes from the system CSPRNG.
    public static func randomBytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let word = generator.next() as UInt64
            withUnsafeBytes(of: word) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
        }
        return bytes
    }

    /// Whether two credentials are equal, looking at every byte whatever the first difference (constant time for
    /// credentials of one length), so that the time a comparison takes tells nothing about where they differ.
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        var difference = left.count ^ right.count
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : 0, r = index < right.count ? right[index] : 0
            difference |= Int(l ^ r)
        }
        return difference == 0
    }

    /// A shortened, log-safe form of a credential: its first 6 characters and an ellipsis.
    public static func redacted(_ credential: String) -> String {
        credential.count <= 6 ? "…" : String(credential.prefix(6)) + "…"
    }
}

/// A thread-safe source of increasing integer ids (Kurento request ids are integers, docs/wire-protocol.md#ids).
public final class SequentialIDs: Sendable {
    private let counter: LockedValue<Int>

    /// Starts at `first`.
    public init(startingAt first: Int = 0) { counter = LockedValue(first) }

    /// The next id.
    public func next() -> Int { counter.withLock { value in defer { value += 1 }; return value } }
}
