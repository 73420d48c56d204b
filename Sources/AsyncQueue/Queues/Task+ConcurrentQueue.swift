extension Task {
  /// Runs `operation` in a new task, ordered on `concurrentQueue`: it starts after every item
  /// enqueued before it has started (and after an earlier barrier has finished), when fewer than
  /// the queue's width run.
  ///
  /// The place in line is taken inside this call. The operation inherits the caller's actor
  /// isolation, like `Task { }`. Cancelling the task does not skip it: it runs in its turn with
  /// `Task.isCancelled` set.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's.
  ///   - concurrentQueue: The queue that orders the task.
  ///   - operation: The work to run.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on concurrentQueue: ConcurrentQueue,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async -> Success
  ) where Failure == Never {
    let reservation = concurrentQueue.reserve(barrier: false, waitingCaller: false)
    let storage = concurrentQueue.storage
    self.init(queueTaskNamed: name, priority: priority) {
      await storage.run(in: reservation, operation)
    }
  }

  /// Runs the throwing `operation` in a new task, ordered on `concurrentQueue`; the task's `value`
  /// rethrows its error, and the queue goes on. Order and cancellation are as for the
  /// non-throwing form.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's.
  ///   - concurrentQueue: The queue that orders the task.
  ///   - operation: The work to run.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on concurrentQueue: ConcurrentQueue,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async throws -> Success
  ) where Failure == any Error {
    let reservation = concurrentQueue.reserve(barrier: false, waitingCaller: false)
    let storage = concurrentQueue.storage
    self.init(queueTaskNamed: name, priority: priority) {
      try await storage.run(in: reservation, operation)
    }
  }

  /// Runs `operation` in a new task as a barrier of `concurrentQueue`: it starts when every item
  /// enqueued before it has finished, and no item enqueued after it starts before it finishes.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's.
  ///   - concurrentQueue: The queue that orders the task.
  ///   - operation: The work to run.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    barrierOn concurrentQueue: ConcurrentQueue,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async -> Success
  ) where Failure == Never {
    let reservation = concurrentQueue.reserve(barrier: true, waitingCaller: false)
    let storage = concurrentQueue.storage
    self.init(queueTaskNamed: name, priority: priority) {
      await storage.run(in: reservation, operation)
    }
  }

  /// Runs the throwing `operation` in a new task as a barrier of `concurrentQueue`; the task's
  /// `value` rethrows its error, and the queue goes on.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's.
  ///   - concurrentQueue: The queue that orders the task.
  ///   - operation: The work to run.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    barrierOn concurrentQueue: ConcurrentQueue,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async throws -> Success
  ) where Failure == any Error {
    let reservation = concurrentQueue.reserve(barrier: true, waitingCaller: false)
    let storage = concurrentQueue.storage
    self.init(queueTaskNamed: name, priority: priority) {
      try await storage.run(in: reservation, operation)
    }
  }
}
