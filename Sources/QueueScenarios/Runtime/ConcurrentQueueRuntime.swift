import AsyncQueue
import QueueTestingEngine

/// `ConcurrentQueue`, as shipped, or broken in one of two ways the oracles must catch: barriers
/// enqueued as ordinary items (a barrier that starts early), or a queue one wider than declared.
struct ConcurrentQueueRuntime: ScenarioQueueRuntime {
  let queue: ConcurrentQueue
  /// Barriers become ordinary items (the `barrier-starts-early` mutant).
  var ignoresBarriers = false

  func enqueue(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) {
    enqueue(priority: priority, barrier: false, body)
  }

  nonisolated(nonsending) func enqueueAndWait(_ body: @escaping ScenarioItemBody) async throws {
    try await enqueueAndWait(barrier: false, body)
  }

  func task(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error> {
    task(priority: priority, barrier: false, body)
  }

  func enqueue(priority: TaskPriority?, barrier: Bool, _ body: @escaping ScenarioItemBody) {
    if barrier && !ignoresBarriers {
      queue.enqueueBarrier { try? await body(nil) }
    } else {
      queue.enqueue { try? await body(nil) }
    }
  }

  nonisolated(nonsending) func enqueueAndWait(barrier: Bool, _ body: @escaping ScenarioItemBody) async throws {
    if barrier && !ignoresBarriers {
      try await queue.enqueueBarrierAndWait { () async throws -> Void in try await body(nil) }
    } else {
      try await queue.enqueueAndWait { () async throws -> Void in try await body(nil) }
    }
  }

  func task(priority: TaskPriority?, barrier: Bool, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error> {
    if barrier && !ignoresBarriers {
      return Task(priority: priority, barrierOn: queue) { () async throws -> Void in try await body(nil) }
    }
    return Task(priority: priority, on: queue) { () async throws -> Void in try await body(nil) }
  }
}
