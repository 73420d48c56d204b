import AsyncQueue
import QueueTestingEngine

/// The body of a scenario item, run in the isolation its queue provides (nil for FIFO queues).
typealias ScenarioItemBody = @Sendable (_ isolation: isolated (any Actor)?) async throws -> Void

/// A queue as the scenario interpreter drives it: the real queues of `AsyncQueue`, or a broken
/// one that proves the oracles catch what it breaks.
protocol ScenarioQueueRuntime: Sendable {
  /// `enqueue { }`: returns at once; an error thrown by the body ends the item.
  func enqueue(priority: TaskPriority?, _ body: @escaping ScenarioItemBody)
  /// `enqueueAndWait { }`: returns when the body has, rethrowing its error.
  nonisolated(nonsending) func enqueueAndWait(_ body: @escaping ScenarioItemBody) async throws
  /// `Task(on: queue) { }`.
  func task(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error>

  /// `enqueue`, as a barrier if `barrier` (concurrent queues; the others have no barriers).
  func enqueue(priority: TaskPriority?, barrier: Bool, _ body: @escaping ScenarioItemBody)
  /// `enqueueAndWait`, as a barrier if `barrier`.
  nonisolated(nonsending) func enqueueAndWait(barrier: Bool, _ body: @escaping ScenarioItemBody) async throws
  /// `Task(on:)`, or `Task(barrierOn:)` if `barrier`.
  func task(priority: TaskPriority?, barrier: Bool, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error>
}

extension ScenarioQueueRuntime {
  /// A queue without barriers: the plain enqueue (the parser allows barriers on concurrent queues
  /// only).
  func enqueue(priority: TaskPriority?, barrier: Bool, _ body: @escaping ScenarioItemBody) {
    enqueue(priority: priority, body)
  }

  /// A queue without barriers: the plain `enqueueAndWait`.
  nonisolated(nonsending) func enqueueAndWait(barrier: Bool, _ body: @escaping ScenarioItemBody) async throws {
    try await enqueueAndWait(body)
  }

  /// A queue without barriers: the plain `Task(on:)`.
  func task(priority: TaskPriority?, barrier: Bool, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error> {
    task(priority: priority, body)
  }
}

/// An actor for a scenario's actor queue to run on.
actor ScenarioActor {
  let queue = ActorQueue<ScenarioActor>()

  init() {
    queue.adoptExecutionContext(of: self)
  }

  /// Runs `body` isolated to this actor (for mutants that hop onto it per item).
  func run(_ body: ScenarioItemBody) async throws {
    try await body(self)
  }
}
