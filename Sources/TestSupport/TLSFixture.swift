public import Foundation

/// A throw-away CA and a server certificate signed by it, made with the `openssl` command line tool.
public struct TLSFixture: Sendable {
    public let directory: URL
    public var caFile: String { directory.appendingPathComponent("ca.pem").path }
    public var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    public var privateKeyFile: String { directory.appendingPathComponent("server.key").path }

    public struct OpenSSLFailed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Creates the CA and a server certificate with `subjectAltName` (e.g. `IP:127.0.0.1,DNS:localhost`).
    public static func make(subjectAltName: String = "IP:127.0.0.1,DNS:localhost") throws -> TLSFixture {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ks-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fixture = TLSFixture(directory: dir)
        let ext = dir.appendingPathComponent("san.ext")
        try "subjectAltName=\(subjectAltName)\nbasicConstraints=CA:FALSE\n".write(to: ext, atomically: true, encoding: .utf8)
        try run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir.appendingPathComponent("ca.key").path,
                 "-out", fixture.caFile, "-days", "2", "-subj", "/CN=KurentoSignaling Test CA"])
        try fixture.issue(commonName: "test-server", certificateFile: fixture.certificateFile,
                          privateKeyFile: fixture.privateKeyFile)
        return fixture
    }

    /// Replaces ``certificateFile`` and ``privateKeyFile`` with a new key and a new certificate for `commonName`,
    /// signed by the same CA (a renewal), each written beside its target and renamed over it.
    public func renew(commonName: String) throws {
        let certificate = certificateFile + ".new", key = privateKeyFile + ".new"
        try issue(commonName: commonName, certificateFile: certificate, privateKeyFile: key)
        for (from, to) in [(key, privateKeyFile), (certificate, certificateFile)] {
            guard rename(from, to) == 0 else { throw OpenSSLFailed(description: "rename \(from): errno \(errno)") }
        }
    }

    /// A new key at `privateKeyFile` and a certificate for `commonName` at `certificateFile`, signed by the CA,
    /// with the SAN of `san.ext`.
    private func issue(commonName: String, certificateFile: String, privateKeyFile: String) throws {
        let csr = directory.appendingPathComponent("server.csr").path
        try Self.run(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", privateKeyFile, "-out", csr,
                      "-subj", "/CN=\(commonName)"])
        try Self.run(["x509", "-req", "-in", csr, "-CA", caFile, "-CAkey", directory.appendingPathComponent("ca.key").path,
                      "-CAcreateserial", "-out", certificateFile, "-days", "2",
                      "-extfile", directory.appendingPathComponent("san.ext").path])
    }

    /// A self-signed server certificate (no CA): ``caFile`` is the certificate itself.
    public static func makeSelfSigned(subjectAltName: String = "IP:127.0.0.1,DNS:localhost") throws -> TLSFixture {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ks-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fixture = TLSFixture(directory: dir)
        try run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", fixture.privateKeyFile,
                 "-out", fixture.certificateFile, "-days", "2", "-subj", "/CN=localhost",
                 "-addext", "subjectAltName=\(subjectAltName)"])
        try FileManager.default.copyItem(atPath: fixture.certificateFile, toPath: fixture.caFile)
        return fixture
    }

    /// A directory holding ``caFile`` under its subject hash (`openssl rehash`), as `SSL_CERT_DIR` expects.
    public func hashedCADirectory() throws -> String {
        let dir = directory.appendingPathComponent("ca-dir")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: caFile, toPath: dir.appendingPathComponent("ca.pem").path)
        try Self.run(["rehash", dir.path])
        return dir.path
    }

    /// OpenSSL's own directory (`OPENSSLDIR`, as `openssl version -d` prints it), where its default CA file and
    /// directory live: `cert.pem` and `certs`.
    public static func openSSLDirectory() throws -> String {
        let line = try run(["version", "-d"])  // OPENSSLDIR: "/usr/lib/ssl"
        let parts = line.split(separator: "\"")
        guard parts.count >= 2 else { throw OpenSSLFailed(description: "unexpected `openssl version -d`: \(line)") }
        return String(parts[1])
    }

    /// Runs the `openssl` tool; returns its standard output.
    @discardableResult
    private static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let errors = Pipe()
        let output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        // Both pipes are small here (a line, a few warnings); read stdout first, then stderr.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = String(decoding: complaints, as: UTF8.self)
            throw OpenSSLFailed(description: "openssl \(arguments.first ?? ""): " + reason)
        }
        return String(decoding: printed, as: UTF8.self)
    }
}
