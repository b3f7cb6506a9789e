import Foundation

/// `openssl s_client` as an independent TLS client (docs/testing.md#witnesses): whether a handshake with the given
/// options succeeds against a local server, which cipher it agreed on, and which certificate the server served.
public enum OpenSSLProbe {
    /// What one `s_client` run saw.
    public struct Handshake: Sendable {
        /// Whether the handshake completed (`s_client` exited 0 and named a cipher).
        public var succeeded: Bool
        /// The cipher agreed on, e.g. `ECDHE-RSA-AES128-GCM-SHA256`; nil when the handshake failed.
        public var cipher: String?
        /// The served certificate's serial number as `openssl x509 -serial` prints it (`serial=…`).
        public var serial: String?
        /// The served certificate's subject as `openssl x509 -subject` prints it (`subject=CN = …`).
        public var subject: String?
        /// Everything `s_client` printed, for failure messages.
        public var output: String

        /// The application protocol the server chose from `-alpn`'s list (`ALPN protocol: …`); nil when none was.
        public var alpnProtocol: String? {
            output.split(separator: "\n").lazy.compactMap { line -> String? in
                guard let range = line.range(of: "ALPN protocol: ") else { return nil }
                return line[range.upperBound...].trimmingCharacters(in: .whitespaces)
            }.first
        }
    }

    /// Whether `openssl` is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    static let executable = "/usr/bin/openssl"

    /// Connects to 127.0.0.1:`port` with `openssl s_client` and `options` (e.g. `["-tls1_2", "-cipher",
    /// "AES128-SHA"]`), with an empty stdin so that it ends once the handshake is done.
    public static func handshake(port: Int, _ options: [String] = []) async throws -> Handshake {
        let arguments = ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"] + options
        let (status, output) = try await run(arguments, input: Data())
        let cipher = output.split(separator: "\n").lazy.compactMap { line -> String? in
            guard let range = line.range(of: "Cipher is ") else { return nil }
            let name = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
            return name == "(NONE)" ? nil : name
        }.first
        var handshake = Handshake(succeeded: status == 0 && cipher != nil, cipher: cipher, output: output)
        if let start = output.range(of: "-----BEGIN CERTIFICATE-----"),
           let end = output.range(of: "-----END CERTIFICATE-----", range: start.upperBound..<output.endIndex) {
            let pem = String(output[start.lowerBound..<end.upperBound]) + "\n"
            let (_, fields) = try await run(["x509", "-noout", "-serial", "-subject"], input: Data(pem.utf8))
            for line in fields.split(separator: "\n") {
                if line.hasPrefix("serial=") { handshake.serial = String(line) }
                if line.hasPrefix("subject=") { handshake.subject = String(line) }
            }
        }
        return handshake
    }

    /// Runs `openssl arguments` (or another `executable`) with `input` on its stdin, on a thread of its own (never
    /// the cooperative pool), within 20 s (scaled); returns its exit status and its stdout and stderr together.
    static func run(_ arguments: [String], input: Data, executable: String = executable) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let reader = stdout.fileHandleForReading
        return try await withDeadline(.seconds(20), "\(executable) \(arguments.first ?? "")") {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<(Int32, String), Never>) in
                    Thread.detachNewThread {
                        let printed = reader.readDataToEndOfFile()
                        process.waitUntilExit()
                        continuation.resume(returning: (process.terminationStatus,
                                                        String(decoding: printed, as: UTF8.self)))
                    }
                }
            } onCancel: {
                process.terminate()
            }
        }
    }
}
