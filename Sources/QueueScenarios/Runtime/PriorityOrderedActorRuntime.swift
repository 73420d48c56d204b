import AsyncQueue
import QueueTestingEngine

/// Mutant: the anchor's flaw. A drainer takes items in order but starts each one as a task
/// isolated to the actor, which the runtime queues on the actor by priority: a later item of
/// higher priority starts first.
struct PriorityOrderedActorRuntime: ScenarioQueueRuntime {
  let actor: PriorityOrderedActor

  func enqueue(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) {
    let startDrainer = actor.pending.withLock { pending in
      pending.items.append((priority, body))
      defer { pending.draining = true }
      return !pending.draining
    }
    if startDrainer {
      let actor = actor
      Task { await actor.drain() }
    }
  }

  nonisolated(nonsending) func enqueueAndWait(_ body: @escaping ScenarioItemBody) async throws {
    try await enqueueAndAwait(priority: nil, body)
  }

  func task(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error> {
    Task(priority: priority) { try await enqueueAndAwait(priority: priority, body) }
  }

  /// Enqueues `body` and waits until it has run, receiving its error.
  private func enqueueAndAwait(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      enqueue(priority: priority) { isolation in
        do {
          try await body(isolation)
          continuation.resume()
        } catch {
          continuation.resume(throwing: error)
          throw error
        }
      }
    }
  }
}

/// The actor of ``PriorityOrderedActorRuntime``, with its pending items.
actor PriorityOrderedActor {
  struct Pending: Sendable {
    var items: [(TaskPriority?, ScenarioItemBody)] = []
    var draining = false
  }

  nonisolated let pending = LockedState(Pending())

  /// Starts every pending item as a task isolated to this actor; while this method holds the
  /// actor they queue up on it, and the runtime then runs them highest priority first.
  func drain() {
    while true {
      let items = pending.withLock { pending in
        defer { pending.items = [] }
        if pending.items.isEmpty { pending.draining = false }
        return pending.items
      }
      if items.isEmpty { return }
      for (priority, body) in items {
        Task(priority: priority) { try? await body(self) }
      }
    }
  }
}
