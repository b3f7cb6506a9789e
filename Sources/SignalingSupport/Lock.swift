#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock backed by `pthread_mutex_t`.
///
/// Swift's `Synchronization.Mutex` is futex-based on Linux and ThreadSanitizer does not model it, so every
/// cross-thread state in this package is guarded by this lock instead (LWS-NOTES §6).
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

/// A value guarded by a ``Lock``: the only way to reach it is ``withLock(_:)``.
public final class LockedValue<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written inside `lock.withLock`, so accesses never overlap.
    @usableFromInline let lock = Lock()
    @usableFromInline var value: Value

    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}
