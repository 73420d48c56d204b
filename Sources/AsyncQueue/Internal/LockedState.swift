#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#else
  #error("LockedState needs a platform mutex")
#endif

/// A value guarded by a platform mutex, with the value and the mutex in one allocation: the
/// package's one lock wrapper (the harness and queue-fuzz use it too, as package API).
///
/// `@usableFromInline`/`@inlinable` along the enqueue path so that a generic queue used from
/// another module is specialized there: unspecialized generic code paid runtime metadata lookups
/// on every item. A copy shares the box: it is a reference to one guarded value.
@usableFromInline
package struct LockedState<State> {
  @usableFromInline
  let storage: LockStorage<State>

  @usableFromInline
  init(storage: LockStorage<State>) {
    self.storage = storage
  }

  /// Creates a locked box holding `initialState`.
  package static func make(_ initialState: State) -> LockedState<State> {
    LockedState(storage: LockStorage.make(initialState))
  }

  /// Creates a locked box holding `initialState`.
  package init(_ initialState: State) {
    self.init(storage: LockStorage.make(initialState))
  }

  /// Runs `body` with exclusive access to the state. `body` must not block or suspend.
  @inlinable
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try storage.withLock(body)
  }
}

// Safety proof for `@unchecked Sendable`: the only way to reach `State` is `withLock`, which holds
// the mutex for the whole access, so no two threads touch the state at once. `State: Sendable`
// guarantees that values moved in or out of the box may cross threads.
extension LockedState: @unchecked Sendable where State: Sendable {}  // safe: proof just above

/// The single allocation behind ``LockedState``: the state as the header, the mutex as the element.
///
/// Why not `Synchronization.Mutex`: on Linux the thread sanitizer does not see `Mutex`'s futex
/// operations and reports every guarded access as a data race (.ci/tsan-canary.swift shows it). The
/// queues must be clean under `swift test --sanitize=thread`, so they use a lock that TSan
/// understands: `pthread_mutex_t` on Linux, `os_unfair_lock` on Apple platforms.
@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, LockStorage<State>.Primitive> {
  #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
  #else
    @usableFromInline typealias Primitive = pthread_mutex_t
  #endif

  static func make(_ initialState: State) -> LockStorage<State> {
    let buffer = Self.create(minimumCapacity: 1) { _ in initialState }
    // `create` is declared to return `ManagedBuffer<State, Primitive>` but allocates `Self`.
    let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
    storage.withUnsafeMutablePointerToElements { lock in
      #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
      #else
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
          // Adaptive: a contended lock spins briefly before it sleeps. The queues hold it for a
          // few instructions, and a task's creator and the thread running the task take it in
          // turn; with the default kind each collision puts a thread to sleep and wakes it, a
          // context switch where a few spins would have done.
          pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        let status = pthread_mutex_init(lock, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
      #endif
    }
    return storage
  }

  deinit {
    withUnsafeMutablePointerToElements { lock in
      #if !canImport(Darwin)
        pthread_mutex_destroy(lock)
      #endif
      lock.deinitialize(count: 1)
    }
    // The header (the state) is destroyed by ManagedBuffer's own deinit.
  }

  @inlinable
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try withUnsafeMutablePointers { state, lock in
      #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
      #else
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
      #endif
      return try body(&state.pointee)
    }
  }
}
