import AsyncQueue
import QueueTestingEngine

/// Which queues a scenario runs against: the real ones, or a deliberately broken one (a
/// *mutant*) that the oracles must catch.
package enum QueueImplementation: String, CaseIterable, Sendable {
  /// `FIFOQueue`, `ActorQueue` and `MainActor.queue` as shipped.
  case real
  /// Every queue is a `Task { }` per item (the task-per-call counterexample).
  case taskPerEnqueue = "task-per-enqueue"
  /// FIFO queues let the next item start when the current one suspends (actor-queue
  /// semantics where FIFO is promised).
  case fifoReleasesAtSuspension = "fifo-suspend-release"
  /// Actor queues start items through the actor's priority-ordered job queue (the anchor's
  /// flaw): mixed priorities reorder starts.
  case actorPriorityReorder = "actor-priority"
  /// FIFO queues keep their order, but number their items with a counter that outlives each run
  /// and yield before odd-numbered items: the same schedule replays differently. Only
  /// `--check-determinism` (``ScenarioRunner/Options/checkDeterminism``) catches it.
  case stateBetweenRuns = "state-between-runs"
  /// Concurrent queues run barriers as ordinary items: a barrier starts early.
  case barrierStartsEarly = "barrier-starts-early"
  /// Concurrent queues are one wider than declared.
  case widthPlusOne = "width-plus-one"
  /// Semaphores whose waiter, cancelled while it waits, keeps the permit a signal then hands it.
  case cancelledWaiterKeepsPermit = "cancelled-waiter-keeps-permit"

  /// The implementations that break an ordering guarantee (every one but ``real`` and
  /// ``stateBetweenRuns``, which breaks determinism instead).
  package static var mutants: [QueueImplementation] { allCases.filter { $0 != .real && $0 != .stateBetweenRuns } }

  /// A fresh runtime for one queue of one run.
  func makeRuntime(for queue: Scenario.Queue) -> any ScenarioQueueRuntime {
    if queue.kind == .concurrent {
      let width = (queue.width ?? 1) + (self == .widthPlusOne ? 1 : 0)
      return ConcurrentQueueRuntime(
        queue: ConcurrentQueue(name: queue.name, width: width), ignoresBarriers: self == .barrierStartsEarly)
    }
    // The concurrent-queue and semaphore mutants leave the other queues as shipped.
    return switch (self, queue.kind) {
    case (.real, .fifo), (.actorPriorityReorder, .fifo), (.barrierStartsEarly, .fifo), (.widthPlusOne, .fifo),
      (.cancelledWaiterKeepsPermit, .fifo):
      RealFIFORuntime(queue: FIFOQueue(name: queue.name))
    case (.stateBetweenRuns, .fifo):
      RunCountingFIFORuntime(queue: FIFOQueue(name: queue.name))
    case (.real, .actor), (.fifoReleasesAtSuspension, .actor), (.stateBetweenRuns, .actor),
      (.barrierStartsEarly, .actor), (.widthPlusOne, .actor), (.cancelledWaiterKeepsPermit, .actor):
      Self.actorRuntime()
    case (.real, .main), (.fifoReleasesAtSuspension, .main), (.stateBetweenRuns, .main),
      (.barrierStartsEarly, .main), (.widthPlusOne, .main), (.cancelledWaiterKeepsPermit, .main):
      Self.mainActorRuntime()
    case (.taskPerEnqueue, .fifo):
      TaskPerEnqueueRuntime(actor: nil)
    case (.taskPerEnqueue, .actor), (.taskPerEnqueue, .main):
      TaskPerEnqueueRuntime(actor: ScenarioActor())
    case (.fifoReleasesAtSuspension, .fifo):
      // An actor queue on a private actor: starts in order, but only until the first suspension.
      Self.actorRuntime()
    case (.actorPriorityReorder, .actor), (.actorPriorityReorder, .main):
      PriorityOrderedActorRuntime(actor: PriorityOrderedActor())
    case (_, .completion), (_, .concurrent):
      // Concurrent queues are made above; the parser and the generator make no completion queue.
      preconditionFailure("scenarios have no completion queues")
    }
  }

  /// A fresh semaphore for one run.
  func makeSemaphore(_ semaphore: Scenario.Semaphore) -> ScenarioSemaphoreRuntime {
    ScenarioSemaphoreRuntime(
      semaphore: AsyncSemaphore(value: semaphore.value), cancelledWaiterKeepsPermit: self == .cancelledWaiterKeepsPermit
    )
  }

  private static func actorRuntime() -> RealActorRuntime<ScenarioActor> {
    let actor = ScenarioActor()
    return RealActorRuntime(actor: actor, queue: actor.queue)
  }

  /// An actor queue on the main actor, as `MainActor.queue` is, but fresh for each run: the
  /// process's `MainActor.queue` is shared with code outside the run (tests running in
  /// parallel), which could hold its turn while a run waits.
  private static func mainActorRuntime() -> RealActorRuntime<MainActor> {
    let queue = ActorQueue<MainActor>()
    queue.adoptExecutionContext(of: MainActor.shared)
    return RealActorRuntime(actor: MainActor.shared, queue: queue)
  }
}
