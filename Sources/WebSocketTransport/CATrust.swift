import CLibWebSockets
#if canImport(Glibc)
import Glibc
#endif

/// The CAs a `wss://` client trusts: ``TLSClientConfiguration/caFile`` alone when it is set, else the system
/// store, found where OpenSSL looks for it.
///
/// lws 4.1.6 as Debian builds it (`LWS_SSL_CLIENT_USE_OS_CA_CERTS`) calls `SSL_CTX_set_default_verify_paths` on
/// every client vhost, so a configured CA file was trusted *besides* the system store; and without a CA file it
/// also added `LWS_OPENSSL_CLIENT_CERTS`, `../share` relative to the working directory, as a CA directory. Client
/// vhosts therefore turn lws's own loading off (`LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS`) and load this instead:
/// the file through `client_ssl_ca_filepath`, the directory in `LWS_CALLBACK_OPENSSL_LOAD_EXTRA_CLIENT_VERIFY_CERTS`.
struct CATrust: Hashable, Sendable {
    /// A PEM file of CA certificates.
    var file: String
    /// Directories of hashed certificates (`openssl rehash`), separated by `:`; nil when ``file`` is configured.
    var directory: String?

    /// What a client configured with `tls` trusts, the system store located in `environment`.
    static func forClient(_ tls: TLSClientConfiguration, environment: (String) -> String?) -> CATrust {
        if let caFile = tls.caFile { return CATrust(file: caFile, directory: nil) }
        return systemStore(environment: environment)
    }

    /// The system store as OpenSSL finds it (`X509_STORE_set_default_paths`): the file named by `SSL_CERT_FILE`,
    /// else OpenSSL's default file (`X509_get_default_cert_file()`, Debian: `/usr/lib/ssl/cert.pem`), and the
    /// directories named by `SSL_CERT_DIR`, else its default directory (`/usr/lib/ssl/certs`). An empty variable
    /// counts as unset.
    static func systemStore(environment: (String) -> String?) -> CATrust {
        func variable(_ name: UnsafePointer<CChar>) -> String? {
            environment(String(cString: name)).flatMap { $0.isEmpty ? nil : $0 }
        }
        return CATrust(
            file: variable(X509_get_default_cert_file_env()) ?? String(cString: X509_get_default_cert_file()),
            directory: variable(X509_get_default_cert_dir_env()) ?? String(cString: X509_get_default_cert_dir()))
    }

    /// The process environment.
    static func processEnvironment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
