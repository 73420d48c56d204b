import QueueTestingEngine
import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("CancellableQueue", .timeLimit(.minutes(5)), .hangGuard)
struct CancellableQueueTests {
  /// `cancelTasks()` cancels the running task and the waiting ones, not later ones, and nothing
  /// is skipped or reordered.
  @Test func cancelsRunningAndPendingButNotLaterTasks() async {
    let queue = CancellableQueue(underlyingQueue: FIFOQueue())
    let started = TestGate("gate")
    let cancelled = TestGate("gate")
    let log = EventLog<String>()
    let running = Task(on: queue) { () -> Bool in
      started.open()
      // Wait until cancelled: the cancellation handler opens the gate.
      await withTaskCancellationHandler {
        await cancelled.wait()
      } onCancel: {
        cancelled.open()
      }
      log.append("running")
      return Task.isCancelled
    }
    let pending = Task(on: queue) { () -> Bool in
      log.append("pending")
      return Task.isCancelled
    }
    await started.wait()
    queue.cancelTasks()
    let later = Task(on: queue) { () -> Bool in
      log.append("later")
      return Task.isCancelled
    }
    #expect(await running.value == true)
    #expect(await pending.value == true)
    #expect(await later.value == false)
    #expect(log.snapshot == ["running", "pending", "later"])
    #expect(await eventually { queue.unfinishedTaskCount == 0 })
  }

  @Test func worksWithActorQueuesAndTheMainActorQueue() async throws {
    let journal = Journal()
    let actorTasks = CancellableQueue(underlyingQueue: journal.queue)
    // An actor queue holds order only until an item's first suspension, so an earlier item
    // parked on a gate would not keep these from starting. Holding the actor does: neither task
    // can start before this call returns, and it cancels them first.
    let (waiting, throwing) = await Self.createAndCancel(on: journal, actorTasks)
    await waiting.value
    await #expect(throws: CancellationError.self) { try await throwing.value }
    #expect(await journal.entries == ["cancelled? true"])

    let mainTasks = CancellableQueue(underlyingQueue: MainActor.queue)
    let onMain = Task(on: mainTasks) { () -> Bool in
      MainActor.assertIsolated()
      return Task.isCancelled
    }
    #expect(await onMain.value == false)
  }

  private static func createAndCancel(
    on journal: isolated Journal,
    _ actorTasks: CancellableQueue<ActorQueue<Journal>>
  ) -> (Task<Void, Never>, Task<Int, any Error>) {
    let waiting = Task(on: actorTasks) { journal in
      journal.write("cancelled? \(Task.isCancelled)")
    }
    let throwing = Task(on: actorTasks) { (_: isolated Journal) throws -> Int in
      try Task.checkCancellation()
      return 1
    }
    actorTasks.cancelTasks()
    return (waiting, throwing)
  }

  @Test func isolatedToFormsAreTracked() async throws {
    let queue = CancellableQueue(underlyingQueue: FIFOQueue())
    let journal = Journal()
    let gate = TestGate("gate")
    queue.underlyingQueue.enqueue { await gate.wait() }
    let plain = Task(on: queue, isolatedTo: journal) { journal in journal.write("\(Task.isCancelled)") }
    let throwing = Task(on: queue, isolatedTo: journal) { (_: isolated Journal) throws -> Int in
      try Task.checkCancellation()
      return 0
    }
    queue.cancelTasks()
    gate.open()
    await plain.value
    await #expect(throws: CancellationError.self) { try await throwing.value }
    #expect(await journal.entries == ["true"])
  }

  /// The registry's pure bookkeeping, including both races it must survive.
  @Test func registryHandlesFinishBeforeAttachAndCancelBeforeAttach() {
    var registry = CancellableQueue<FIFOQueue>.TaskRegistry()
    let finishedEarly = registry.register()
    registry.finish(finishedEarly)
    #expect(registry.attach(finishedEarly, cancel: {}) == false)
    #expect(registry.count == 0)

    let cancelledEarly = registry.register()
    #expect(registry.cancelAll().isEmpty)
    #expect(registry.attach(cancelledEarly, cancel: {}) == true)
    #expect(registry.count == 0)

    let attached = registry.register()
    #expect(registry.attach(attached, cancel: {}) == false)
    #expect(registry.cancelAll().count == 1)
    #expect(registry.count == 0)
  }

  /// `cancelTasks()` cancels the newest task first. Cancelling the running task can let it finish
  /// and the next one start at once on another thread; that one must be cancelled already, or it
  /// starts and sees `Task.isCancelled` false (the thread sanitizer's slow threads showed it).
  @Test func cancellationsRunNewestFirst() {
    typealias Registry = CancellableQueue<FIFOQueue>.TaskRegistry
    var registry = Registry()
    let order = LockedState<[UInt64]>.make([])
    for _ in 0..<20 {
      let id = registry.register()
      _ = registry.attach(id) { order.withLock { $0.append(id) } }
    }
    for cancel in registry.cancelAll() { cancel() }
    #expect(order.withLock { $0 } == Array((0..<20).reversed()))
    #expect(registry.count == 0)
  }
}
