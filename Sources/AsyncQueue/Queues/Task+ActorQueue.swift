extension Task {
  /// Runs `operation` on `actorQueue`'s adopted actor in a new task, started after every item
  /// enqueued before it has started, and before any later item starts.
  ///
  /// The place in line is taken inside this call. The operation runs without interruption by
  /// later items until its first suspension. Cancelling the task sets `Task.isCancelled` inside
  /// the operation, which still runs in its turn.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's. Priorities never reorder starts.
  ///   - actorQueue: The queue that orders the task.
  ///   - operation: The work to run, isolated to the adopted actor.
  /// - Precondition: The queue adopted an actor that is still alive.
  @discardableResult
  public init<ActorType: Actor>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on actorQueue: ActorQueue<ActorType>,
    operation: @Sendable @escaping (isolated ActorType) async -> Success
  ) where Failure == Never {
    let reservation = actorQueue.reserveTurn()
    // The task holds the queue's lane, not the queue: see `ActorQueue.Lane`.
    let lane = actorQueue.lane
    if QueueObservation.queueTasksMayStartOnTheirActor {
      // The task's first job runs on the actor: waiting for the turn, starting and passing the
      // turn on take no hop.
      self = .creating(startingOn: reservation.actor) { actor in
        Task(nameIfAvailable: name, priority: priority) {
          _ = actor  // capturing the isolated parameter is what isolates the closure to it
          return await lane.run(in: reservation, operation)
        }
      }
    } else {
      self.init(queueTaskNamed: name, priority: priority) {
        await lane.run(in: reservation, operation)
      }
    }
  }

  /// Runs the throwing `operation` on `actorQueue`'s adopted actor in a new task, in start order;
  /// the task's `value` rethrows its error, and the queue goes on.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's. Priorities never reorder starts.
  ///   - actorQueue: The queue that orders the task.
  ///   - operation: The work to run, isolated to the adopted actor.
  /// - Precondition: The queue adopted an actor that is still alive.
  @discardableResult
  public init<ActorType: Actor>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on actorQueue: ActorQueue<ActorType>,
    operation: @Sendable @escaping (isolated ActorType) async throws -> Success
  ) where Failure == any Error {
    let reservation = actorQueue.reserveTurn()
    // The task holds the queue's lane, not the queue: see `ActorQueue.Lane`.
    let lane = actorQueue.lane
    if QueueObservation.queueTasksMayStartOnTheirActor {
      self = .creating(startingOn: reservation.actor) { actor in
        Task(nameIfAvailable: name, priority: priority) {
          _ = actor  // isolates the closure to the actor, as in the non-throwing form
          return try await lane.run(in: reservation, operation)
        }
      }
    } else {
      self.init(queueTaskNamed: name, priority: priority) {
        try await lane.run(in: reservation, operation)
      }
    }
  }

  /// Runs `operation` on the main actor in a new task, ordered on `actorQueue` (usually
  /// `MainActor.queue`): it starts after every earlier item has started.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's. Priorities never reorder starts.
  ///   - actorQueue: The queue that orders the task.
  ///   - operation: The work to run on the main actor.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on actorQueue: ActorQueue<MainActor>,
    operation: @MainActor @escaping () async -> Success
  ) where Failure == Never {
    let reservation = actorQueue.reserveTurn()
    // The task holds the queue's lane, not the queue: see `ActorQueue.Lane`.
    let lane = actorQueue.lane
    if QueueObservation.queueTasksMayStartOnTheirActor {
      self.init(nameIfAvailable: name, priority: priority) { @MainActor in
        await lane.run(in: reservation) { _ in await operation() }
      }
    } else {
      self.init(queueTaskNamed: name, priority: priority) {
        await lane.run(in: reservation) { _ in await operation() }
      }
    }
  }

  /// Runs the throwing `operation` on the main actor in a new task, ordered on `actorQueue`
  /// (usually `MainActor.queue`); the task's `value` rethrows its error.
  ///
  /// - Parameters:
  ///   - name: The task's name, where the platform supports task names.
  ///   - priority: The task's priority; `nil` inherits the caller's. Priorities never reorder starts.
  ///   - actorQueue: The queue that orders the task.
  ///   - operation: The work to run on the main actor.
  @discardableResult
  public init(
    name: String? = nil,
    priority: TaskPriority? = nil,
    on actorQueue: ActorQueue<MainActor>,
    operation: @MainActor @escaping () async throws -> Success
  ) where Failure == any Error {
    let reservation = actorQueue.reserveTurn()
    // The task holds the queue's lane, not the queue: see `ActorQueue.Lane`.
    let lane = actorQueue.lane
    if QueueObservation.queueTasksMayStartOnTheirActor {
      self.init(nameIfAvailable: name, priority: priority) { @MainActor in
        try await lane.run(in: reservation) { (_: isolated MainActor) async throws -> Success in
          try await operation()
        }
      }
    } else {
      self.init(queueTaskNamed: name, priority: priority) {
        try await lane.run(in: reservation) { (_: isolated MainActor) async throws -> Success in
          try await operation()
        }
      }
    }
  }
}

extension ActorQueue {
  /// A place in line together with the actor it will start on.
  struct TaskReservation: Sendable {
    let actor: ActorType
    let reservation: SerialDrainStorage<Entry>.Reservation
  }

  /// Takes a place in line now, for a task created right after.
  func reserveTurn() -> TaskReservation {
    let actor = adoptedActor()
    return TaskReservation(actor: actor, reservation: reserveTurn(on: actor, waiting: false))
  }
}

extension ActorQueue.Lane {
  /// Runs `operation` on the reserved actor once the reserved turn comes; the turn passes on as
  /// soon as the operation has started there.
  nonisolated(nonsending) func run<Success: Sendable, Failure: Error>(
    in reserved: ActorQueue.TaskReservation,
    _ operation: @Sendable (isolated ActorType) async throws(Failure) -> Success
  ) async throws(Failure) -> Success {
    await storage.awaitTurn(reserved.reservation)
    return try await ActorQueue.startTurn(on: reserved.actor, lane: self, reservation: reserved.reservation, operation)
  }
}
