#if canImport(Glibc)
import Glibc
#endif

/// `strdup`ed C strings that must outlive the lws objects pointing at them (docs/libwebsockets.md#lifetimes).
/// Used only on the service thread; freed when the owner goes away.
final class CStringStore {
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// A C copy of `s`, valid until the store is deinitialised.
    func keep(_ s: String) -> UnsafePointer<CChar> {
        let copy = strdup(s)!
        strings.append(copy)
        return UnsafePointer(copy)
    }

    deinit { strings.forEach { free($0) } }
}
