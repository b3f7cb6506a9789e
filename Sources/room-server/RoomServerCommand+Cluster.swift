import ArgumentParser
import Foundation
import RoomCluster

/// `--cluster` and its secret: the Redis URL from `--cluster` or `ROOM_SERVER_CLUSTER_URL`, and its password from the
/// URL, `--cluster-password-file` or `ROOM_SERVER_CLUSTER_PASSWORD`, so that the password need not be on the command
/// line, where `ps` shows it to every user of the machine.
extension RoomServerCommand {
    /// The environment variable the Redis URL is read from when `--cluster` is not given.
    static let clusterURLVariable = "ROOM_SERVER_CLUSTER_URL"
    /// The environment variable the Redis password is read from when neither the URL nor a file gives one.
    static let clusterPasswordVariable = "ROOM_SERVER_CLUSTER_PASSWORD"

    /// A non-empty environment variable.
    static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--cluster`, else `ROOM_SERVER_CLUSTER_URL`.
    var clusterURLText: String? { cluster ?? Self.environment(Self.clusterURLVariable) }

    /// The usage rules of the cluster options (exit 2).
    func validateCluster() throws {
        guard let text = clusterURLText else {
            if nodeID != nil { throw ValidationError("--node-id goes with --cluster") }
            if clusterPasswordFile != nil { throw ValidationError("--cluster-password-file goes with --cluster") }
            return
        }
        let url: RedisURL
        do { url = try RedisURL(parsing: text) } catch { throw ValidationError("--cluster: \(error)") }
        if url.password != nil, clusterPasswordFile != nil {
            throw ValidationError("--cluster-password-file: the --cluster URL holds a password already; give it in one place")
        }
        if sharedObjectsPath != nil {
            throw ValidationError("--shared-objects does not go with --cluster: the cluster's Redis keeps the shared objects")
        }
    }

    /// Why the password file could not be used (exit 1).
    struct PasswordFileError: Error, CustomStringConvertible {
        var description: String
    }

    /// The Redis URL with its password: the URL's own, else the first line of `--cluster-password-file`, else
    /// `ROOM_SERVER_CLUSTER_PASSWORD`; `nil` without a cluster.
    func clusterRedisURL() throws -> RedisURL? {
        guard let text = clusterURLText, var url = try? RedisURL(parsing: text) else { return nil }
        if url.password != nil { return url }
        if let path = clusterPasswordFile {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw PasswordFileError(description: "--cluster-password-file: cannot read \(path)")
            }
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .first.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 } ?? ""
            guard !line.isEmpty else { throw PasswordFileError(description: "--cluster-password-file: \(path) is empty") }
            url.password = String(line)
        } else {
            url.password = Self.environment(Self.clusterPasswordVariable)
        }
        return url
    }

    /// Whether the password is on the command line, where `ps` shows it.
    var passwordOnCommandLine: Bool {
        guard let cluster, let url = try? RedisURL(parsing: cluster) else { return false }
        return url.password != nil
    }
}
