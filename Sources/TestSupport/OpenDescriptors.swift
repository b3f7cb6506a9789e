import Foundation

/// The number of open file descriptors of this process (Linux: the entries of `/proc/self/fd`), for leak checks.
public func openFileDescriptorCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// The number of open sockets of this process (the `socket:` entries of `/proc/self/fd`), for leak checks.
public func openSocketCount() -> Int {
    openFileDescriptorDescriptions().count { $0.contains("socket:") }
}

/// What each open descriptor of this process points to (`/proc/self/fd`), for a leak check's failure message.
public func openFileDescriptorDescriptions() -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { entry in
        "\(entry) → " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) ?? "?")
    }
}
