/// Runs one operation per key at a time and shares its result with everyone who asks meanwhile.
///
/// Asking an actor for a value that takes an `await` to produce invites a classic bug: the actor
/// checks its cache, suspends to download, and a second caller, let in by the suspension
/// (reentrancy), finds the cache still empty and downloads again. `SingleFlight` records the
/// operation *before* anything suspends, so concurrent requests for one key join it:
///
/// ```swift
/// let images = SingleFlight<URL, Image>(caching: .successes)
///
/// func image(at url: URL) async throws -> Image {
///   try await images.value(for: url) {
///     try await download(url)    // runs once, however many callers ask at the same time
///   }
/// }
/// ```
///
/// - **Sharing:** while an operation for a key runs, every request for that key waits for it and
///   gets its result (its value, or the error it threw). The `operation` closures of the joining
///   requests are not called.
/// - **Caching:** with ``CachePolicy/successes`` a value is kept and returned at once to later
///   requests, until ``forget(_:)``; with ``CachePolicy/none`` (the default) the next request
///   after an operation ended starts a new one. A failure is never cached: the next request
///   retries.
/// - **Cancellation:** cancelling a waiting task makes its request throw `CancellationError` at
///   once; the operation goes on for the others. When the last waiter is cancelled, nobody needs
///   the result any more: the operation's task is cancelled and the key is free, so the next
///   request starts afresh.
/// - **Where the operation runs:** in a new unstructured task (like `Task {}` from nonisolated
///   code), which inherits the task-local values and priority of the request that started it.
public final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// What happens to a value once its operation succeeded.
  public enum CachePolicy: Sendable {
    /// Nothing is kept: each operation serves the requests made while it runs.
    case none
    /// Successful values are kept until ``SingleFlight/forget(_:)``.
    case successes
  }

  typealias StateMachine = SingleFlightStateMachine<
    Key, Value, CheckedContinuation<Value, any Error>, Task<Void, Never>
  >

  /// A name for diagnostics; the operations' tasks are named after it and the key.
  public let name: String?
  private let state: LockedState<StateMachine>

  /// Creates an empty single-flight group.
  /// - Parameters:
  ///   - name: A name for diagnostics.
  ///   - caching: Whether successful values are kept (default: no).
  public init(name: String? = nil, caching: CachePolicy = .none) {
    self.name = name
    state = .make(StateMachine(cachesSuccesses: caching == .successes))
  }

  /// Returns the value for `key`: the cached one, the result of the operation already running
  /// for `key`, or the result of `operation`, which then runs for everyone who asks meanwhile.
  ///
  /// - Throws: The error the shared operation threw, or `CancellationError` when the calling
  ///   task is cancelled while it waits.
  public func value(
    for key: Key, operation: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    if let cached = cachedValue(for: key) { return cached }
    let waiter = state.withLock { $0.makeWaiterID() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        switch state.withLock({ $0.request(key: key, waiter: waiter, continuation: continuation) }) {
        case .resumeWithValue(let continuation, let value):
          continuation.resume(returning: value)
        case .resumeCancelled(let continuation):
          continuation.resume(throwing: CancellationError())
        case .wait:
          break
        case .startOperation(let flight):
          start(operation, key: key, flight: flight)
        }
      }
    } onCancel: {
      if case .resumeCancelled(let continuation, let operation) = state.withLock({
        $0.cancel(key: key, waiter: waiter)
      }) {
        continuation.resume(throwing: CancellationError())
        operation?.cancel()
      }
    }
  }

  /// The cached value for `key`, if the policy keeps values and one is there.
  public func cachedValue(for key: Key) -> Value? {
    state.withLock { $0.cachedValue(for: key) }
  }

  /// Drops the cached value for `key`, so that the next request runs its operation again. An
  /// operation in flight for `key` goes on for the requests already waiting for it, but it no
  /// longer takes new ones and its value is not cached: a request made after `forget` returns
  /// never gets a value whose operation started before it.
  public func forget(_ key: Key) {
    state.withLock { $0.forget(key) }
  }

  private func start(_ operation: @escaping @Sendable () async throws -> Value, key: Key, flight: UInt64) {
    let state = self.state
    let task = Task(queueTaskNamed: name.map { "\($0) \(key)" }, priority: nil) {
      let result: Result<Value, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      let waiters = state.withLock { $0.complete(key: key, flight: flight, succeeded: try? result.get()) }
      for waiter in waiters { waiter.resume(with: result) }
    }
    // The flight may have ended before its task was recorded (every waiter cancelled): then
    // nobody wants the result.
    if !state.withLock({ $0.attach(task, key: key, flight: flight) }) { task.cancel() }
  }
}
