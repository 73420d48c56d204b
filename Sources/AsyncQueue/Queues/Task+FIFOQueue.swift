extension Task {
  /// Runs `operation` in a new task once every item enqueued on `fifoQueue` before it has
  /// finished; items enqueued after it start only after it finishes.
  ///
  /// The place in line is taken inside this call. The operation inherits the caller's actor
  /// isolation, like `Task { }`. Cancelling the task does not skip it: it runs in its turn with
  /// `Task.isCancelled` set. Awaiting such a task from an item of the same queue deadlocks.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's.
  ///   - fifoQueue: The queue that orders the task.
  ///   - isolation: The caller's actor, filled in for you: the task runs on it when the operation
  ///     does too, so waiting for its turn and passing the turn on take no hop.
  ///   - operation: The work to run.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on fifoQueue: FIFOQueue,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async -> Success
  ) where Failure == Never {
    let reservation = fifoQueue.reserveTurn(waiting: false)
    // The task holds the queue's lane, not the queue: see `FIFOQueue.Lane`.
    let lane = fifoQueue.lane
    if !QueueObservation.queueTasksMayStartOnTheirActor {
      self.init(queueTaskNamed: name, priority: priority) {
        await lane.run(in: reservation, operation)
      }
    } else if isolation != nil {
      // The task starts on the caller's actor, where an operation that inherited the caller's
      // isolation runs too: waiting for the turn, running and giving the turn back take no hop.
      self.init(nameIfAvailable: name, priority: priority) {
        _ = isolation  // referencing the isolated parameter is what isolates the closure to it
        return await lane.run(in: reservation, operation)
      }
    } else {
      // Called from nonisolated code. The closure is written here, where it is formed as the
      // `@isolated(any)` operation `Task { }` takes: passed through `queueTaskNamed` as a plain
      // function value, it would be wrapped in a thunk, which allocates once per task.
      self.init(nameIfAvailable: name, priority: priority) {
        await lane.run(in: reservation, operation)
      }
    }
  }

  /// Runs the throwing `operation` in a new task once every item enqueued on `fifoQueue` before
  /// it has finished; the task's `value` rethrows its error, and the queue goes on.
  ///
  /// Order and cancellation are as for the non-throwing form.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's.
  ///   - fifoQueue: The queue that orders the task.
  ///   - isolation: The caller's actor, filled in for you: the task runs on it when the operation
  ///     does too, so waiting for its turn and passing the turn on take no hop.
  ///   - operation: The work to run.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on fifoQueue: FIFOQueue,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async throws -> Success
  ) where Failure == any Error {
    let reservation = fifoQueue.reserveTurn(waiting: false)
    // The task holds the queue's lane, not the queue: see `FIFOQueue.Lane`.
    let lane = fifoQueue.lane
    if !QueueObservation.queueTasksMayStartOnTheirActor {
      self.init(queueTaskNamed: name, priority: priority) {
        try await lane.run(in: reservation, operation)
      }
    } else if isolation != nil {
      self.init(nameIfAvailable: name, priority: priority) {
        _ = isolation  // isolates the closure to the caller's actor, as in the non-throwing form
        return try await lane.run(in: reservation, operation)
      }
    } else {
      self.init(nameIfAvailable: name, priority: priority) {
        try await lane.run(in: reservation, operation)  // formed here, as in the non-throwing form
      }
    }
  }

  /// Runs `operation` isolated to `isolatedActor` in a new task, ordered on `fifoQueue`: it starts
  /// after every earlier item has finished and holds the queue until it returns.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's.
  ///   - fifoQueue: The queue that orders the task.
  ///   - isolatedActor: The actor the operation runs on.
  ///   - operation: The work to run.
  @discardableResult
  public init<ActorType: Actor>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on fifoQueue: FIFOQueue,
    isolatedTo isolatedActor: ActorType,
    operation: @Sendable @escaping (isolated ActorType) async -> Success
  ) where Failure == Never {
    let reservation = fifoQueue.reserveTurn(waiting: false)
    // The task holds the queue's lane, not the queue: see `FIFOQueue.Lane`.
    let lane = fifoQueue.lane
    if QueueObservation.queueTasksMayStartOnTheirActor {
      // The task's first job runs on `isolatedActor`: waiting, running and passing the turn on
      // take no hop.
      self = .creating(startingOn: isolatedActor) { actor in
        Task(nameIfAvailable: name, priority: priority) {
          await lane.run(in: reservation) { await operation(actor) }
        }
      }
    } else {
      self.init(queueTaskNamed: name, priority: priority) {
        await lane.run(in: reservation) { await operation(isolatedActor) }
      }
    }
  }

  /// Runs the throwing `operation` isolated to `isolatedActor` in a new task, ordered on
  /// `fifoQueue`; the task's `value` rethrows its error, and the queue goes on.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's.
  ///   - fifoQueue: The queue that orders the task.
  ///   - isolatedActor: The actor the operation runs on.
  ///   - operation: The work to run.
  @discardableResult
  public init<ActorType: Actor>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on fifoQueue: FIFOQueue,
    isolatedTo isolatedActor: ActorType,
    operation: @Sendable @escaping (isolated ActorType) async throws -> Success
  ) where Failure == any Error {
    let reservation = fifoQueue.reserveTurn(waiting: false)
    // The task holds the queue's lane, not the queue: see `FIFOQueue.Lane`.
    let lane = fifoQueue.lane
    if QueueObservation.queueTasksMayStartOnTheirActor {
      self = .creating(startingOn: isolatedActor) { actor in
        Task(nameIfAvailable: name, priority: priority) {
          try await lane.run(in: reservation) { () async throws -> Success in try await operation(actor) }
        }
      }
    } else {
      self.init(queueTaskNamed: name, priority: priority) {
        try await lane.run(in: reservation) { () async throws -> Success in try await operation(isolatedActor) }
      }
    }
  }
}

extension FIFOQueue.Lane {
  /// Runs `operation` in the caller's task once the reserved turn comes, and gives the turn back
  /// when it has finished (or thrown).
  @inline(__always)
  nonisolated(nonsending) func run<Success, Failure: Error>(
    in reservation: SerialDrainStorage<FIFOQueue.Job>.Reservation,
    _ operation: () async throws(Failure) -> Success
  ) async throws(Failure) -> Success {
    await storage.awaitTurn(reservation)
    reservation.item?.started()
    defer { endTurn(reservation) }
    return try await operation()
  }
}
