import CLibWebSockets

/// Which TLS versions and ciphers a `wss://` server or client accepts (docs/libwebsockets.md#tls).
///
/// TLS 1.2 is the least version whatever the policy. The default, ``forwardSecret``, keeps TLS 1.2 to ECDHE key
/// exchange with AEAD ciphers (forward secrecy, no CBC), and TLS 1.3 to its standard suites, all of which are both.
public struct TLSCipherPolicy: Sendable, Hashable {
    /// The TLS 1.2 ciphers, as an OpenSSL cipher string (`SSL_CTX_set_cipher_list`).
    public var tls12Ciphers: String
    /// The TLS 1.3 suites, colon-separated (`SSL_CTX_set_ciphersuites`).
    public var tls13Suites: String

    /// Creates a policy. A list OpenSSL finds nothing usable in makes the server fail to listen (and a client
    /// fail to connect) with the reason, rather than fall back to OpenSSL's defaults.
    public init(tls12Ciphers: String, tls13Suites: String) {
        self.tls12Ciphers = tls12Ciphers
        self.tls13Suites = tls13Suites
    }

    /// ECDHE with AES-GCM or ChaCha20-Poly1305 on TLS 1.2 (ECDSA and RSA certificates), the standard suites on
    /// TLS 1.3: what Mozilla's "intermediate" configuration allows, without its finite-field DHE.
    public static let forwardSecret = TLSCipherPolicy(
        tls12Ciphers: "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
            + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305",
        tls13Suites: "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256")

    /// Applies the policy to an `SSL_CTX` lws is building; the reason when OpenSSL refuses it.
    func apply(to context: OpaquePointer) -> String? {
        var reason = [CChar](repeating: 0, count: 256)
        guard clws_tls_apply_policy(context, tls12Ciphers, tls13Suites, &reason, reason.count) != 0 else { return nil }
        return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
