#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// A mutual-exclusion lock backed by `pthread_mutex_t`.
///
/// Swift's `Synchronization.Mutex` is futex-based on Linux and ThreadSanitizer does not model it, so every
/// cross-thread state in this package is guarded by this lock instead (docs/libwebsockets.md#sanitizers).
public final class Lock: @unchecked Sendable {
    // @unchecked: the mutex is heap-allocated, never moved, and only touched through pthread calls,
    // which are themselves thread-safe.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked lock.
    public init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Acquires the lock. Pair with ``unlock()``; prefer ``withLock(_:)``.
    public func lock() {
        let rc = pthread_mutex_lock(mutex)
        precondition(rc == 0, "pthread_mutex_lock failed: \(rc)")
    }

    /// Releases the lock.
    public func unlock() {
        let rc = pthread_mutex_unlock(mutex)
        precondition(rc == 0, "pthread_mutex_unlock failed: \(rc)")
    }

    /// Runs `body` while holding the lock.
    @inlinable
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value guarded by a lock: the only way to reach it is ``withLock(_:)``.
///
/// One allocation holds both the value and its `pthread_mutex_t` (a `ManagedBuffer`), and the value is reached
/// through a pointer, so an access costs the lock and nothing else: no dynamic exclusivity check, as a class's
/// stored `var` would need. Copies of a `LockedValue` share the one value.
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
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return Result { () throws(Failure) -> T in try body(&value.pointee) }
        }.get()
    }

    /// The value and its mutex in one heap object.
    @usableFromInline
    final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        static func make(_ value: Value) -> Storage {
            let buffer = Storage.create(minimumCapacity: 1) { _ in value }
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
