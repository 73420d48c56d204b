import QueueTestingEngine
import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("ConcurrentQueue", .timeLimit(.minutes(5)), .hangGuard)
struct ConcurrentQueueTests {
  /// How many items of `queue` run and wait, read from its machine.
  static func counts(_ queue: ConcurrentQueue) -> (running: Int, waiting: Int) {
    queue.storage.machine.withLock { ($0.running, $0.waitingCount) }
  }

  /// Up to the width run at once, of every enqueue form; the rest wait until one finishes.
  @Test func theWidthLimitsHowManyRun() async throws {
    let queue = ConcurrentQueue(name: "limited", width: 3)
    let gate = TestGate("held")
    let meter = OverlapMeter()
    let started = EventLog<Int>()
    for index in 0..<4 {
      queue.enqueue {
        meter.enter()
        started.append(index)
        await gate.wait()
        meter.leave()
      }
    }
    let task = Task(on: queue) { () -> Int in
      meter.enter()
      started.append(4)
      meter.leave()
      return 4
    }
    #expect(await eventually { started.snapshot.count == 3 })
    // Nothing finishes while the gate is shut, so the queue cannot start a fourth item.
    #expect(Self.counts(queue) == (3, 2))
    #expect(Set(started.snapshot) == [0, 1, 2])
    gate.open()
    #expect(await task.value == 4)
    await queue.enqueueBarrierAndWait {}
    #expect(meter.maximum == 3)
    #expect(started.snapshot.count == 5)
    #expect(Self.counts(queue) == (0, 0))
  }

  /// A barrier starts when every item before it has finished, runs alone, and holds every item
  /// after it until it finishes.
  @Test func aBarrierRunsAloneBetweenTheItemsAroundIt() async {
    let queue = ConcurrentQueue(width: 4)
    let before = TestGate("before")
    let during = TestGate("during")
    let log = EventLog<String>()
    for index in 0..<3 {
      queue.enqueue {
        log.append("before \(index) start")
        await before.wait()
        log.append("before \(index) end")
      }
    }
    queue.enqueueBarrier {
      log.append("barrier start")
      await during.wait()
      log.append("barrier end")
    }
    for index in 0..<3 { queue.enqueue { log.append("after \(index)") } }
    #expect(await eventually { log.snapshot.count == 3 })
    #expect(Self.counts(queue) == (3, 4))
    before.open()
    #expect(await eventually { log.snapshot.contains("barrier start") })
    // The barrier runs and is held: nothing after it started.
    #expect(Self.counts(queue) == (1, 3))
    #expect(!log.snapshot.contains { $0.hasPrefix("after") })
    during.open()
    await queue.enqueueBarrierAndWait {}
    let events = log.snapshot
    let barrierStart = events.firstIndex(of: "barrier start")!
    let barrierEnd = events.firstIndex(of: "barrier end")!
    #expect(events[..<barrierStart].count == 6)
    #expect(events[..<barrierStart].allSatisfy { $0.hasPrefix("before") })
    #expect(barrierEnd == barrierStart + 1)
    #expect(Set(events[(barrierEnd + 1)...]) == ["after 0", "after 1", "after 2"])
  }

  /// A width of 1 starts and finishes items as a FIFO queue does, across suspensions.
  @Test func aWidthOfOneIsFIFO() async {
    let queue = ConcurrentQueue(width: 1)
    let log = EventLog<String>()
    let meter = OverlapMeter()
    for index in 0..<200 {
      let work: @Sendable () async -> Void = {
        meter.enter()
        log.append("start \(index)")
        for _ in 0..<(index % 4) { await Task.yield() }
        log.append("finish \(index)")
        meter.leave()
      }
      switch index % 3 {
      case 0: queue.enqueue(work)
      case 1: Task(on: queue) { await work() }
      default: queue.enqueueBarrier(work)
      }
    }
    await queue.enqueueAndWait {}
    #expect(log.snapshot == (0..<200).flatMap { ["start \($0)", "finish \($0)"] })
    #expect(meter.maximum == 1)
  }

  /// Values and errors reach the caller that waits; the queue goes on after an error.
  @Test func valuesAndErrorsReachTheirCaller() async throws {
    let queue = ConcurrentQueue(width: 2)
    let value = await queue.enqueueAndWait { 42 }
    #expect(value == 42)
    await #expect(throws: TestError(id: 1)) {
      try await queue.enqueueAndWait { () throws(TestError) -> Int in throw TestError(id: 1) }
    }
    await #expect(throws: TestError(id: 2)) {
      try await queue.enqueueBarrierAndWait { () throws(TestError) in throw TestError(id: 2) }
    }
    let failing = Task(on: queue) { () throws -> Int in throw TestError(id: 3) }
    await #expect(throws: TestError(id: 3)) { try await failing.value }
    let barrier = Task(barrierOn: queue) { () -> String in "barrier" }
    #expect(await barrier.value == "barrier")
    let throwingBarrier = Task(barrierOn: queue) { () throws -> Int in throw TestError(id: 4) }
    await #expect(throws: TestError(id: 4)) { try await throwingBarrier.value }
    #expect(await queue.enqueueAndWait { 7 } == 7)
    #expect(Self.counts(queue) == (0, 0))
  }

  /// A cancelled waiting task keeps its place: it runs in its turn and sees the cancellation.
  @Test func aCancelledItemRunsInItsTurn() async {
    let queue = ConcurrentQueue(width: 1)
    let gate = TestGate("first")
    let log = EventLog<String>()
    queue.enqueue {
      await gate.wait()
      log.append("first")
    }
    let cancelled = Task(on: queue) { log.append("second cancelled: \(Task.isCancelled)") }
    queue.enqueue { log.append("third") }
    cancelled.cancel()
    gate.open()
    await queue.enqueueAndWait {}
    #expect(log.snapshot == ["first", "second cancelled: true", "third"])
  }

  /// A cancellable concurrent queue cancels its running and pending tasks, barriers included;
  /// each still starts in its turn, and tasks created afterwards are not cancelled.
  @Test func cancelTasksReachesRunningAndPendingTasks() async throws {
    let queue = CancellableQueue(underlyingQueue: ConcurrentQueue(width: 1))
    let started = TestGate("started")
    let cancelled = TestGate("cancelled")
    let log = EventLog<String>()
    let running = Task(on: queue) { () -> Bool in
      started.open()
      await withTaskCancellationHandler {
        await cancelled.wait()
      } onCancel: {
        cancelled.open()
      }
      log.append("running")
      return Task.isCancelled
    }
    let pendingBarrier = Task(barrierOn: queue) { () -> Bool in
      log.append("barrier")
      return Task.isCancelled
    }
    let pending = Task(on: queue) { () throws -> Bool in
      log.append("pending")
      return Task.isCancelled
    }
    await started.wait()
    queue.cancelTasks()
    let later = Task(barrierOn: queue) { () throws -> Bool in
      log.append("later")
      return Task.isCancelled
    }
    #expect(await running.value)
    #expect(await pendingBarrier.value)
    #expect(try await pending.value)
    #expect(try await !later.value)
    #expect(log.snapshot == ["running", "barrier", "pending", "later"])
    #expect(await eventually { queue.unfinishedTaskCount == 0 })
  }

  /// Releasing the queue drops no work: pending items still run, in order.
  @Test func releasingTheQueueDropsNoWork() async {
    let log = EventLog<Int>()
    let gate = TestGate("held")
    weak var weakQueue: ConcurrentQueue?
    do {
      let queue = ConcurrentQueue(width: 1)
      weakQueue = queue
      queue.enqueue { await gate.wait() }
      for index in 0..<5 { queue.enqueue { log.append(index) } }
    }
    #expect(weakQueue == nil)
    gate.open()
    #expect(await eventually { log.snapshot.count == 5 })
    #expect(log.snapshot == [0, 1, 2, 3, 4])
  }

  /// A width below 1 is a precondition failure that names the width.
  @Test func aWidthBelowOneTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = ConcurrentQueue(width: 0)
    }
  }
}
