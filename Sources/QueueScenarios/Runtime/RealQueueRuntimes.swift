import AsyncQueue
import QueueTestingEngine

/// `FIFOQueue`, as shipped.
struct RealFIFORuntime: ScenarioQueueRuntime {
  let queue: FIFOQueue

  func enqueue(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) {
    queue.enqueue { try? await body(nil) }
  }

  nonisolated(nonsending) func enqueueAndWait(_ body: @escaping ScenarioItemBody) async throws {
    try await queue.enqueueAndWait { () async throws -> Void in try await body(nil) }
  }

  func task(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error> {
    Task(priority: priority, on: queue) { () async throws -> Void in try await body(nil) }
  }
}

/// `ActorQueue`, as shipped, on any actor (a ``ScenarioActor`` or the main actor).
struct RealActorRuntime<ActorType: Actor>: ScenarioQueueRuntime {
  /// Kept alive for the queue, which holds its actor weakly.
  let actor: ActorType
  let queue: ActorQueue<ActorType>

  func enqueue(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) {
    queue.enqueue { actor in try? await body(actor) }
  }

  nonisolated(nonsending) func enqueueAndWait(_ body: @escaping ScenarioItemBody) async throws {
    try await queue.enqueueAndWait { (actor: isolated ActorType) async throws -> Void in try await body(actor) }
  }

  func task(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error> {
    Task(priority: priority, on: queue) { (actor: isolated ActorType) async throws -> Void in try await body(actor) }
  }
}
