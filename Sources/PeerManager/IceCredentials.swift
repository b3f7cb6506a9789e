public import SDP

/// An ICE username fragment and password (RFC 8839 §5.4: ufrag 4–256 ice-chars, pwd 22–256).
public struct IceCredentials: Hashable, Sendable {
    /// `a=ice-ufrag`.
    public var ufrag: String
    /// `a=ice-pwd`.
    public var pwd: String

    /// Credentials with the given values.
    public init(ufrag: String, pwd: String) {
        self.ufrag = ufrag
        self.pwd = pwd
    }

    /// Fresh credentials drawn from `generator` (injected, so that tests are deterministic): a 16-character
    /// ufrag and a 24-character password, both ice-chars; 24 characters carry 143 bits (RFC 8445 §5.3 asks
    /// for at least 128).
    public static func random(using generator: inout some RandomNumberGenerator) -> IceCredentials {
        IceCredentials(ufrag: randomIceChars(16, using: &generator), pwd: randomIceChars(24, using: &generator))
    }

    static let iceChars = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    /// `count` ice-chars, six random bits each (there are exactly 64 ice-chars, so no bias): ten from one
    /// `next()` of the generator, which for the system generator is a system call.
    static func randomIceChars(_ count: Int, using generator: inout some RandomNumberGenerator) -> String {
        var chars: [Character] = []
        chars.reserveCapacity(count)
        var bits: UInt64 = 0, left = 0
        while chars.count < count {
            if left == 0 { (bits, left) = (generator.next(), 10) }
            chars.append(iceChars[Int(bits & 63)])
            bits >>= 6
            left -= 1
        }
        return String(chars)
    }

    /// `true` when both values have a legal length and only ice-chars.
    public var isValid: Bool {
        func iceChars(_ text: String, _ range: ClosedRange<Int>) -> Bool {
            range.contains(text.count) && text.allSatisfy { Self.iceChars.contains($0) }
        }
        return iceChars(ufrag, 4...256) && iceChars(pwd, 22...256)
    }
}

extension Fingerprint {
    /// A well-formed sha-256 fingerprint of random bytes, for simulated endpoints that have no certificate.
    public static func randomSHA256(using generator: inout some RandomNumberGenerator) -> Fingerprint {
        let hex = Array("0123456789ABCDEF")
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let value = bytes.map { String([hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]]) }.joined(separator: ":")
        return Fingerprint(hashFunction: "sha-256", value: value)
    }
}
