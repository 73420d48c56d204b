extension Task {
  /// Like `Task(name:priority:on:operation:)` on a ``ConcurrentQueue``, tracked by `queue` so that
  /// ``CancellableQueue/cancelTasks()`` can cancel it: a cancelled task still starts in its turn
  /// and sees `Task.isCancelled`.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<ConcurrentQueue>,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async -> Success
  ) where Failure == Never {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue) {
      defer { registration.finish() }
      return await operation()
    }
    queue.attach(self, to: registration)
  }

  /// Like the throwing `Task(name:priority:on:operation:)` on a ``ConcurrentQueue``, tracked by
  /// `queue` so that ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<ConcurrentQueue>,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async throws -> Success
  ) where Failure == any Error {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue) { () async throws -> Success in
      defer { registration.finish() }
      return try await operation()
    }
    queue.attach(self, to: registration)
  }

  /// Like `Task(name:priority:barrierOn:operation:)`, tracked by `queue` so that
  /// ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    barrierOn queue: CancellableQueue<ConcurrentQueue>,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async -> Success
  ) where Failure == Never {
    let registration = queue.register()
    self.init(name: name, priority: priority, barrierOn: queue.underlyingQueue) {
      defer { registration.finish() }
      return await operation()
    }
    queue.attach(self, to: registration)
  }

  /// Like the throwing `Task(name:priority:barrierOn:operation:)`, tracked by `queue` so that
  /// ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    barrierOn queue: CancellableQueue<ConcurrentQueue>,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async throws -> Success
  ) where Failure == any Error {
    let registration = queue.register()
    self.init(name: name, priority: priority, barrierOn: queue.underlyingQueue) { () async throws -> Success in
      defer { registration.finish() }
      return try await operation()
    }
    queue.attach(self, to: registration)
  }
}
