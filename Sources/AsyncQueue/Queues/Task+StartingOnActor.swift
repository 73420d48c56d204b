extension Task where Failure == Never {
  /// Creates a task whose first job is enqueued on `actor`'s executor, so that `body` starts there
  /// without first running on the global executor and hopping (one job per task instead of two).
  ///
  /// `Task { }` starts on the isolation of its closure, which the runtime reads from the
  /// `@isolated(any)` function value; a closure is isolated to an actor *instance* only when it is
  /// formed in a context isolated to that instance. `startTask(on:)` is such a context: its
  /// `isolated` parameter makes the closure it forms (capturing `actor`) isolated to `actor`.
  init<ActorType: Actor>(
    nameIfAvailable name: String?,
    priority: TaskPriority?,
    startingOn actor: ActorType,
    body: @escaping @Sendable (isolated ActorType) async -> Success
  ) {
    typealias Isolated = (
      isolated ActorType, String?, TaskPriority?, @escaping @Sendable (isolated ActorType) async -> Success
    ) -> Task
    typealias Unchecked = (
      ActorType, String?, TaskPriority?, @escaping @Sendable (isolated ActorType) async -> Success
    ) -> Task
    // Calling the isolated function without being on `actor` is safe because its body touches no
    // state isolated to `actor`: it only forms a closure and hands it to `Task.init`, which reads
    // the closure's isolation and enqueues the task's first job on that executor; it never
    // assumes it runs there. The standard library's `Actor.assumeIsolated` drops `isolated` from
    // a function type with the same cast; the two types differ only in that annotation, which
    // does not change the calling convention.
    let start: Isolated = Task.startTask(on:name:priority:body:)
    self = unsafeBitCast(start, to: Unchecked.self)(actor, name, priority, body)
  }

  private static func startTask<ActorType: Actor>(
    on actor: isolated ActorType,
    name: String?,
    priority: TaskPriority?,
    body: @escaping @Sendable (isolated ActorType) async -> Success
  ) -> Task {
    Task(nameIfAvailable: name, priority: priority) {
      await body(actor)  // capturing the isolated parameter is what isolates the closure to it
    }
  }
}

extension Task where Failure == any Error {
  /// Creates a throwing task whose first job is enqueued on `actor`'s executor; see the
  /// non-throwing form for how and why.
  init<ActorType: Actor>(
    nameIfAvailable name: String?,
    priority: TaskPriority?,
    startingOn actor: ActorType,
    body: @escaping @Sendable (isolated ActorType) async throws -> Success
  ) {
    typealias Isolated = (
      isolated ActorType, String?, TaskPriority?, @escaping @Sendable (isolated ActorType) async throws -> Success
    ) -> Task
    typealias Unchecked = (
      ActorType, String?, TaskPriority?, @escaping @Sendable (isolated ActorType) async throws -> Success
    ) -> Task
    // Safe for the reason given in the non-throwing form: the isolated function only forms a
    // closure and creates the task, touching nothing isolated to `actor`.
    let start: Isolated = Task.startTask(on:name:priority:body:)
    self = unsafeBitCast(start, to: Unchecked.self)(actor, name, priority, body)
  }

  private static func startTask<ActorType: Actor>(
    on actor: isolated ActorType,
    name: String?,
    priority: TaskPriority?,
    body: @escaping @Sendable (isolated ActorType) async throws -> Success
  ) -> Task {
    Task(nameIfAvailable: name, priority: priority) {
      try await body(actor)  // capturing the isolated parameter isolates the closure to it
    }
  }
}
