import QueueTestingEngine

/// Mutant: a `Task { }` per item (the task-per-call counterexample). Nothing orders the tasks, so the
/// scheduler may start them in any order.
struct TaskPerEnqueueRuntime: ScenarioQueueRuntime {
  /// The actor items run on; nil for a FIFO queue.
  let actor: ScenarioActor?

  private func run(_ body: @escaping ScenarioItemBody) async throws {
    if let actor {
      try await actor.run(body)
    } else {
      try await body(nil)
    }
  }

  func enqueue(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) {
    Task(priority: priority) { try? await run(body) }
  }

  nonisolated(nonsending) func enqueueAndWait(_ body: @escaping ScenarioItemBody) async throws {
    try await Task { try await run(body) }.value
  }

  func task(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error> {
    Task(priority: priority) { try await run(body) }
  }
}
