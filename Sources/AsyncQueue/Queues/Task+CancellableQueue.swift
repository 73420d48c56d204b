extension Task {
  /// Like `Task(name:priority:on:operation:)` on a ``FIFOQueue``, tracked by `queue` so that
  /// ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<FIFOQueue>,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async -> Success
  ) where Failure == Never {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue) {
      defer { registration.finish() }
      return await operation()
    }
    queue.attach(self, to: registration)
  }

  /// Like the throwing `Task(name:priority:on:operation:)` on a ``FIFOQueue``, tracked by `queue`
  /// so that ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<FIFOQueue>,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async throws -> Success
  ) where Failure == any Error {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue) { () async throws -> Success in
      defer { registration.finish() }
      return try await operation()
    }
    queue.attach(self, to: registration)
  }

  /// Like `Task(name:priority:on:isolatedTo:operation:)`, tracked by `queue` so that
  /// ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init<ActorType: Actor>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<FIFOQueue>,
    isolatedTo isolatedActor: ActorType,
    operation: @Sendable @escaping (isolated ActorType) async -> Success
  ) where Failure == Never {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue, isolatedTo: isolatedActor) { actor in
      defer { registration.finish() }
      return await operation(actor)
    }
    queue.attach(self, to: registration)
  }

  /// Like the throwing `Task(name:priority:on:isolatedTo:operation:)`, tracked by `queue` so that
  /// ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init<ActorType: Actor>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<FIFOQueue>,
    isolatedTo isolatedActor: ActorType,
    operation: @Sendable @escaping (isolated ActorType) async throws -> Success
  ) where Failure == any Error {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue, isolatedTo: isolatedActor) {
      (actor: isolated ActorType) async throws -> Success in
      defer { registration.finish() }
      return try await operation(actor)
    }
    queue.attach(self, to: registration)
  }

  /// Like `Task(name:priority:on:operation:)` on an ``ActorQueue``, tracked by `queue` so that
  /// ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init<ActorType: Actor>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<ActorQueue<ActorType>>,
    operation: @Sendable @escaping (isolated ActorType) async -> Success
  ) where Failure == Never {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue) { actor in
      defer { registration.finish() }
      return await operation(actor)
    }
    queue.attach(self, to: registration)
  }

  /// Like the throwing `Task(name:priority:on:operation:)` on an ``ActorQueue``, tracked by
  /// `queue` so that ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init<ActorType: Actor>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<ActorQueue<ActorType>>,
    operation: @Sendable @escaping (isolated ActorType) async throws -> Success
  ) where Failure == any Error {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue) {
      (actor: isolated ActorType) async throws -> Success in
      defer { registration.finish() }
      return try await operation(actor)
    }
    queue.attach(self, to: registration)
  }

  /// Like `Task(name:priority:on:operation:)` on `MainActor.queue`, tracked by `queue` so that
  /// ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<ActorQueue<MainActor>>,
    operation: @MainActor @escaping () async -> Success
  ) where Failure == Never {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue) { @MainActor () async -> Success in
      defer { registration.finish() }
      return await operation()
    }
    queue.attach(self, to: registration)
  }

  /// Like the throwing `Task(name:priority:on:operation:)` on `MainActor.queue`, tracked by
  /// `queue` so that ``CancellableQueue/cancelTasks()`` can cancel it.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on queue: CancellableQueue<ActorQueue<MainActor>>,
    operation: @MainActor @escaping () async throws -> Success
  ) where Failure == any Error {
    let registration = queue.register()
    self.init(name: name, priority: priority, on: queue.underlyingQueue) { @MainActor () async throws -> Success in
      defer { registration.finish() }
      return try await operation()
    }
    queue.attach(self, to: registration)
  }
}
