#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// A value guarded by a lock: the only way to reach it is ``withLock(_:)``.
///
/// One allocation holds both the value and its `pthread_mutex_t` (a `ManagedBuffer`), and the value is reached
/// through a pointer, so an access costs the lock and nothing else: no dynamic exclusivity check, as a class's
/// stored `var` would need. Copies of a `LockedValue` share the one value.
///
/// Swift's `Synchronization.Mutex` is futex-based on Linux and ThreadSanitizer does not model it, so every lock in
/// this package is a `LockedValue` (`LockedValue(())` where a lock guards no value of its own;
/// docs/libwebsockets.md#sanitizers).
public struct LockedValue<Value>: @unchecked Sendable {
    // @unchecked: the value is only read or written between `pthread_mutex_lock` and `pthread_mutex_unlock` of
    // its own mutex, so accesses never overlap.
    @usableFromInline let storage: Storage

    /// Wraps `value`.
    public init(_ value: Value) { storage = Storage.make(value) }

    /// Runs `body` with exclusive access to the value. It throws what `body` throws, with its type: a body that
    /// throws only `RoomError` makes this throw only `RoomError`.
    @inlinable
    public func withLock<T, Failure: Error>(_ body: (inout Value) throws(Failure) -> T) throws(Failure) -> T {
        // `withUnsafeMutablePointers` only rethrows (untyped): the outcome leaves it as a `Result`.
        try storage.withUnsafeMutablePointers { slot, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return Result { () throws(Failure) -> T in try body(&slot.pointee.value) }
        }.get()
    }

    /// The value, and a byte so that the slot is never empty: with an empty value (`LockedValue(())`), the body's
    /// access to it was reported by ThreadSanitizer as racing with another caller's read of the buffer before it
    /// took the mutex (`make tsan`, in the KMS double's send lock; a value of any size does not).
    @usableFromInline
    struct Slot {
        @usableFromInline var value: Value
        @usableFromInline var nonEmpty: UInt8 = 0
        @usableFromInline init(value: Value) { self.value = value }
    }

    /// The value and its mutex in one heap object.
    @usableFromInline
    final class Storage: ManagedBuffer<Slot, pthread_mutex_t> {
        static func make(_ value: Value) -> Storage {
            let buffer = Storage.create(minimumCapacity: 1) { _ in Slot(value: value) }
            buffer.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                let rc = pthread_mutex_init(mutex, nil)
                precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
            }
            return unsafeDowncast(buffer, to: Storage.self)
        }

        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }
}
