/// A counting semaphore for Swift Concurrency: limits how many tasks do something at once
/// without blocking a thread.
///
/// ```swift
/// let fetches = AsyncSemaphore(value: 3)
/// let data = try await fetches.withPermitUnlessCancelled {
///   try await fetch(url)            // three fetches at most at once
/// }
/// ```
///
/// - **Order:** ``signal()`` hands its permit to the task that has waited longest. A permit is
///   never taken ahead of an earlier waiter: while tasks wait, no permit is free.
/// - **Cancellation:** ``wait()`` ignores it (the task waits for its permit all the same).
///   ``waitUnlessCancelled()`` throws `CancellationError` when its task is cancelled before a
///   signal handed it a permit, and leaves the line without one; a task handed a permit first
///   keeps it and returns normally, even if it is cancelled the moment after. Whichever comes
///   first, a permit is never lost and never doubled.
/// - **Balance:** each ``wait()`` or successful ``waitUnlessCancelled()`` must be balanced by one
///   ``signal()``; ``withPermit(_:)`` and ``withPermitUnlessCancelled(_:)`` do it for you, also
///   when the operation throws. Extra signals add free permits.
public final class AsyncSemaphore: Sendable {
  typealias Machine = AsyncSemaphoreStateMachine<UnsafeContinuation<Void, any Error>>

  private let machine: LockedState<Machine>

  /// Creates a semaphore with `value` free permits.
  /// - Parameter value: The permits free at first; at least 0 (a precondition).
  public init(value: Int) {
    // The machine checks the value (a precondition that names it).
    machine = .make(Machine(permits: value))
  }

  /// Waits for a permit, even if the task is cancelled. Runs in the caller's isolation: a wait
  /// that finds a free permit neither suspends nor hops.
  public nonisolated(nonsending) func wait() async {
    guard case .wait(let id) = machine.withLock({ $0.wait() }) else { return }
    // Never cancelled: the wait ends only with a permit.
    try? await withUnsafeThrowingContinuation { (waiter: UnsafeContinuation<Void, any Error>) in
      if machine.withLock({ $0.enqueue(waiter, id: id) }) != .waits { waiter.resume() }
    }
  }

  /// Waits for a permit unless the task is cancelled first. Runs in the caller's isolation, as
  /// ``wait()`` does.
  ///
  /// - Throws: `CancellationError` if the task was cancelled before the call, or while it
  ///   waited and before a signal handed it a permit; it then holds no permit.
  public nonisolated(nonsending) func waitUnlessCancelled() async throws(CancellationError) {
    if Task.isCancelled { throw CancellationError() }
    guard case .wait(let id) = machine.withLock({ $0.wait() }) else { return }
    do {
      try await withTaskCancellationHandler {
        try await withUnsafeThrowingContinuation { (waiter: UnsafeContinuation<Void, any Error>) in
          switch machine.withLock({ $0.enqueue(waiter, id: id) }) {
          case .waits: break
          case .granted: waiter.resume()
          case .cancelled: waiter.resume(throwing: CancellationError())
          }
        }
      } onCancel: {
        machine.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
      }
    } catch {
      throw CancellationError()
    }
  }

  /// Gives a permit back: to the task that has waited longest, or to the free permits.
  ///
  /// - Returns: Whether the permit went to a waiting task (false: it is free).
  @discardableResult
  public func signal() -> Bool {
    switch machine.withLock({ $0.signal() }) {
    case .resume(let waiter):
      waiter.resume()
      return true
    case .grantedBeforeComing: return true
    case .freed: return false
    }
  }

  /// Runs `operation` holding a permit: waits for one (see ``wait()``), and signals when the
  /// operation returns or throws.
  public nonisolated(nonsending) func withPermit<Result, Failure: Error>(
    _ operation: nonisolated(nonsending) () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    await wait()
    defer { signal() }
    return try await operation()
  }

  /// Runs `operation` holding a permit, unless the task is cancelled before it gets one (see
  /// ``waitUnlessCancelled()``); signals when the operation returns or throws.
  ///
  /// - Throws: `CancellationError` if no permit was taken (the operation did not run), or what
  ///   the operation throws.
  public nonisolated(nonsending) func withPermitUnlessCancelled<Result>(
    _ operation: nonisolated(nonsending) () async throws -> Result
  ) async throws -> Result {
    try await waitUnlessCancelled()
    defer { signal() }
    return try await operation()
  }

  /// Free permits and waiting tasks (for tests and diagnostics).
  var counts: (free: Int, waiting: Int) {
    machine.withLock { ($0.freePermits, $0.waiterCount) }
  }

  /// Free permits and waiting tasks, for checks outside the package (the real-thread checks of
  /// its guarantees): a snapshot, stale as soon as it is read while other tasks use the semaphore.
  @_spi(Diagnostics) public var permitCounts: (free: Int, waiting: Int) { counts }
}
