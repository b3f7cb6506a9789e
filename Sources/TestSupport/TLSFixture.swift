import Foundation

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
        try run(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", fixture.privateKeyFile,
                 "-out", dir.appendingPathComponent("server.csr").path, "-subj", "/CN=test-server"])
        try run(["x509", "-req", "-in", dir.appendingPathComponent("server.csr").path, "-CA", fixture.caFile,
                 "-CAkey", dir.appendingPathComponent("ca.key").path, "-CAcreateserial", "-out", fixture.certificateFile,
                 "-days", "2", "-extfile", ext.path])
        return fixture
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

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OpenSSLFailed(description: "openssl \(arguments.first ?? ""): " + String(decoding: output, as: UTF8.self))
        }
    }
}
