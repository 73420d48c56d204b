import Foundation

/// An `Operation` that stays executing until it says it is finished, for `OperationQueue`s that
/// run work with completion handlers or `async` code.
///
/// An ordinary operation is finished when `main()` returns, so an operation that starts a
/// download and returns lets the queue move on (and dependent operations start) before the
/// download is done. An `AsyncOperation` is finished only when its finish callback is called, or
/// when its `async` closure returns:
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = 1
/// let download = AsyncOperation { finish in
///   fetch(url) { _ in finish() }            // a completion-handler API
/// }
/// let save = AsyncOperation { await store.save() }
/// save.addDependency(download)              // starts after the download's finish()
/// queue.addOperation(download)              // `addOperation` may be called from async code too
/// queue.addOperation(save)
/// ```
///
/// - **Finishing:** call the callback exactly once, from any thread, at any time after the
///   operation started (also before the closure returns). A second call does nothing but report a
///   diagnostic (to standard error in debug builds), as an item of `CompletionQueue` does.
/// - **Cancellation:** an operation cancelled before it starts finishes without running. Once
///   running, cancelling the `async` form cancels its task; the callback form reads
///   `isCancelled` and decides when to finish. Either way the queue waits for the finish.
/// - **Subclassing:** override ``execute()`` (instead of `main()`) and call ``finish()``.
// Safety proof for `@unchecked Sendable` (which `Operation` itself declares): the mutable state
// (`state`, `task`) is read and written only while `lock` is held; `body` is immutable.
open class AsyncOperation: Operation, @unchecked Sendable {  // safe: proof just above
  private enum State {
    case ready, executing, finished
  }

  private enum Body {
    case callback(@Sendable (_ finish: @escaping @Sendable () -> Void) -> Void)
    case async(@Sendable () async -> Void)
  }

  private let lock = NSLock()
  /// What `isExecuting` and `isFinished` report.
  private var state = State.ready
  /// The state the operation is moving to (ahead of `state` while the notifications go out):
  /// transitions are claimed here, so a second `finish()` racing the first is a no-op.
  private var target = State.ready
  private var task: Task<Void, Never>?
  private let body: Body?
  private let diagnostic: @Sendable (String) -> Void

  /// Creates an operation that runs `body` and is finished when `body` calls `finish`.
  /// - Parameters:
  ///   - diagnostic: Receives misuse reports (a finish callback called twice). The default
  ///     writes them to standard error in debug builds and ignores them in release builds.
  ///   - body: Starts the work; calls `finish` once when it is done.
  public init(
    diagnostic: @escaping @Sendable (String) -> Void = AsyncOperation.standardErrorInDebugBuilds,
    _ body: @escaping @Sendable (_ finish: @escaping @Sendable () -> Void) -> Void
  ) {
    self.body = .callback(body)
    self.diagnostic = diagnostic
    super.init()
  }

  /// Creates an operation that runs `body` in a task and is finished when `body` returns.
  public init(_ body: @escaping @Sendable () async -> Void) {
    self.body = .async(body)
    self.diagnostic = AsyncOperation.standardErrorInDebugBuilds
    super.init()
  }

  /// Creates an operation for a subclass that overrides ``execute()``; misuse reports go to
  /// standard error in debug builds.
  public override init() {
    body = nil
    diagnostic = AsyncOperation.standardErrorInDebugBuilds
    super.init()
  }

  /// The default diagnostic: standard error in debug builds, nothing in release builds.
  public static let standardErrorInDebugBuilds: @Sendable (String) -> Void = { message in
    #if DEBUG
      FileHandle.standardError.write(Data("AsyncOperation: \(message)\n".utf8))
    #endif
  }

  /// Always true: the operation is finished by ``finish()``, not by returning.
  open override var isAsynchronous: Bool { true }

  /// Whether the operation started and has not finished.
  open override var isExecuting: Bool { lock.withLock { state == .executing } }

  /// Whether ``finish()`` was called (or the operation was cancelled before it started).
  open override var isFinished: Bool { lock.withLock { state == .finished } }

  /// Starts the operation; `OperationQueue` calls this. Runs ``execute()``, or finishes at once
  /// when the operation was cancelled before it started.
  open override func start() {
    guard move(to: .executing) else { return }
    if isCancelled {
      finish()
      return
    }
    execute()
  }

  /// The work. The default runs the closure given at creation; a subclass overrides this, and
  /// must call ``finish()`` when done (it does not call `super`).
  open func execute() {
    switch body {
    case .callback(let body):
      body { [self] in finish() }
    case .async(let body):
      let task = Task { [self] in
        await body()
        finish()
      }
      let cancelNow = lock.withLock {
        self.task = task
        return isCancelled
      }
      if cancelNow { task.cancel() }
    case nil:
      finish()
    }
  }

  /// Cancels the operation (and the task of the `async` form, when it runs).
  open override func cancel() {
    super.cancel()
    lock.withLock { task }?.cancel()
  }

  /// Marks the operation finished: the queue moves on and dependent operations may start. Call
  /// it once; a second call does nothing but report a diagnostic.
  public final func finish() {
    guard !move(to: .finished) else { return }
    diagnostic("finish() of operation '\(name ?? "unnamed")' was called again; ignored")
  }

  /// Moves forward to `next`, with the key-value notifications `OperationQueue` watches;
  /// returns false (and does nothing) when the operation is not before `next`.
  @discardableResult
  private func move(to next: State) -> Bool {
    let previous: State? = lock.withLock {
      switch (target, next) {
      case (.ready, .executing), (.ready, .finished), (.executing, .finished):
        defer { target = next }
        return target
      default:
        return nil
      }
    }
    guard let previous else { return false }
    var keys: [String] = []
    if previous == .executing || next == .executing { keys.append("isExecuting") }
    if next == .finished { keys.append("isFinished") }
    for key in keys { willChangeValue(forKey: key) }
    lock.withLock { state = next }
    for key in keys.reversed() { didChangeValue(forKey: key) }
    return true
  }
}
