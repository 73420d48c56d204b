import Foundation
import QueueTestingEngine
import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("FIFOQueue", .timeLimit(.minutes(5)), .hangGuard)
struct FIFOQueueTests {
  /// Items that suspend several times still start and finish in enqueue order and never overlap.
  @Test func startsAndFinishesInOrderWithoutOverlapAcrossSuspensions() async {
    let queue = FIFOQueue()
    let log = EventLog<String>()
    let meter = OverlapMeter()
    for index in 0..<200 {
      queue.enqueue {
        meter.enter()
        log.append("start \(index)")
        for _ in 0..<(index % 4) { await Task.yield() }
        log.append("finish \(index)")
        meter.leave()
      }
    }
    await queue.enqueueAndWait {}
    let expected = (0..<200).flatMap { ["start \($0)", "finish \($0)"] }
    #expect(log.snapshot == expected)
    #expect(meter.maximum == 1)
  }

  /// A held item keeps every later item, of every enqueue style, waiting.
  @Test func allStylesShareOneLine() async throws {
    actor Recorder {
      var events: [String] = []
      func record(_ event: String) { events.append(event) }
    }
    let queue = FIFOQueue(name: "styles")
    let gate = TestGate("gate")
    let log = EventLog<String>()
    let recorder = Recorder()
    queue.enqueue {
      await gate.wait()
      log.append("enqueue")
    }
    queue.enqueue(on: recorder) { recorder in
      recorder.record("enqueue(on:)")
      log.append("enqueue(on:)")
    }
    let task = Task(on: queue) { () -> Int in
      log.append("Task(on:)")
      return 7
    }
    let throwingTask = Task(on: queue) { () throws -> Int in
      log.append("Task(on:) throwing")
      throw TestError(id: 1)
    }
    let isolatedTask = Task(on: queue, isolatedTo: recorder) { recorder in
      recorder.record("Task(on:isolatedTo:)")
      log.append("Task(on:isolatedTo:)")
    }
    #expect(log.snapshot.isEmpty)
    gate.open()
    let waited = await queue.enqueueAndWait { () -> String in
      log.append("enqueueAndWait")
      return "done"
    }
    #expect(waited == "done")
    #expect(await task.value == 7)
    await #expect(throws: TestError(id: 1)) { try await throwingTask.value }
    await isolatedTask.value
    #expect(
      log.snapshot == [
        "enqueue", "enqueue(on:)", "Task(on:)", "Task(on:) throwing", "Task(on:isolatedTo:)", "enqueueAndWait",
      ])
    #expect(await recorder.events == ["enqueue(on:)", "Task(on:isolatedTo:)"])
  }

  /// Enqueue order is fixed inside the synchronous call: items enqueued by a nonisolated
  /// synchronous function in a loop run in loop order, whatever the runtime does afterwards.
  @Test func orderIsFixedInTheSynchronousCall() async {
    let queue = FIFOQueue()
    let log = EventLog<Int>()
    func enqueueAll() {
      for index in 0..<1000 { queue.enqueue { log.append(index) } }
    }
    enqueueAll()
    await queue.enqueueAndWait {}
    #expect(log.snapshot == Array(0..<1000))
  }

  @Test func enqueueAndWaitReturnsValuesAndRethrows() async throws {
    let queue = FIFOQueue()
    let value = await queue.enqueueAndWait { 42 }
    #expect(value == 42)
    await #expect(throws: TestError(id: 2)) {
      try await queue.enqueueAndWait { () throws(TestError) in throw TestError(id: 2) }
    }
    // The queue goes on after an error.
    #expect(await queue.enqueueAndWait { "after" } == "after")
  }

  @Test func enqueueAndWaitOnActorRunsIsolated() async {
    actor Box {
      var value = 0
      func bump() async -> Int {
        await queue.enqueueAndWait(on: self) { box in
          box.value += 1
          return box.value
        }
      }
      let queue = FIFOQueue()
    }
    let box = Box()
    #expect(await box.bump() == 1)
    #expect(await box.bump() == 2)
  }

  /// A non-Sendable value can be used in enqueueAndWait: the operation runs in the caller's
  /// isolation, not in another task.
  @Test func enqueueAndWaitRunsInCallersIsolation() async {
    final class NotSendable { var count = 0 }
    let local = NotSendable()
    let queue = FIFOQueue()
    await queue.enqueueAndWait { local.count += 1 }
    #expect(local.count == 1)
  }

  /// One item's error reaches only its awaiter; the items after it still run.
  @Test func errorReachesOnlyItsAwaiter() async throws {
    let queue = FIFOQueue()
    let gate = TestGate("gate")
    queue.enqueue { await gate.wait() }
    let first = Task(on: queue) { () throws -> Int in 1 }
    let failing = Task(on: queue) { () throws -> Int in throw TestError(id: 3) }
    let last = Task(on: queue) { () throws -> Int in 3 }
    gate.open()
    #expect(try await first.value == 1)
    await #expect(throws: TestError(id: 3)) { try await failing.value }
    #expect(try await last.value == 3)
  }

  /// Cancelling a task that waits for its turn does not skip or reorder it: it runs in its turn
  /// and sees the cancellation.
  @Test func cancellationReachesTheOperationInItsTurn() async {
    let queue = FIFOQueue()
    let gate = TestGate("gate")
    let log = EventLog<String>()
    queue.enqueue {
      await gate.wait()
      log.append("first")
    }
    let cancelled = Task(on: queue) { () -> Bool in
      log.append("second")
      return Task.isCancelled
    }
    let third = Task(on: queue) { () -> Bool in
      log.append("third")
      return Task.isCancelled
    }
    cancelled.cancel()
    gate.open()
    #expect(await cancelled.value == true)
    #expect(await third.value == false)
    #expect(log.snapshot == ["first", "second", "third"])
  }

  /// Cancelling an enqueueAndWait caller: the operation still runs in its turn with
  /// `Task.isCancelled` set.
  @Test func cancelledEnqueueAndWaitCallerStillRunsInTurn() async {
    let queue = FIFOQueue()
    let gate = TestGate("gate")
    queue.enqueue { await gate.wait() }
    let waiter = Task { await queue.enqueueAndWait { Task.isCancelled } }
    waiter.cancel()
    gate.open()
    #expect(await waiter.value == true)
  }

  /// Releasing the queue does not drop enqueued work.
  @Test func releasedQueueStillRunsEnqueuedWork() async {
    let gate = TestGate("gate")
    let done = TestGate("gate")
    let log = EventLog<Int>()
    weak var weakQueue: FIFOQueue?
    do {
      let queue = FIFOQueue()
      weakQueue = queue
      queue.enqueue { await gate.wait() }
      for index in 0..<10 { queue.enqueue { log.append(index) } }
      queue.enqueue { done.open() }
    }
    #expect(weakQueue == nil)
    gate.open()
    await done.wait()
    #expect(log.snapshot == Array(0..<10))
  }

  /// An idle queue holds no drainer and no reference to its past items, and the queue itself
  /// is not kept alive by anything it ran.
  @Test func idleQueueHoldsNoTaskAndNoCycle() async {
    final class Payload: Sendable {}
    weak var weakPayload: Payload?
    weak var weakQueue: FIFOQueue?
    do {
      let queue = FIFOQueue()
      weakQueue = queue
      do {
        let payload = Payload()
        weakPayload = payload
        queue.enqueue { _ = payload }
        queue.enqueue { [queue] in _ = queue }  // an item that captures its own queue
      }
      await queue.enqueueAndWait {}
      // The drainer gives up the turn right after the last item; let it get there.
      #expect(await eventually { !queue.storage.isBusy })
    }
    // The drainer's task lets go of its last batch as it returns, on its own thread, just after it
    // gave up the turn: wait for that (a queue that kept a reference would keep it for good).
    #expect(await eventually { weakPayload == nil })
    #expect(await eventually { weakQueue == nil })
  }

  /// The idle fast path of enqueueAndWait runs inline, without a drainer task.
  @Test func idleEnqueueAndWaitRunsInline() async {
    let queue = FIFOQueue()
    let busyInside = await queue.enqueueAndWait { queue.storage.isBusy }
    #expect(busyInside)  // the caller holds the turn while it runs...
    #expect(!queue.storage.isBusy)  // ...and gives it back synchronously, with no drainer left
  }

  /// Eight threads enqueue 125,000 items each onto one queue: every item runs exactly once and
  /// each producer's items run in that producer's order.
  @Test func stressEightThreadsByOneHundredTwentyFiveThousand() async {
    let producers = 8
    let perProducer = 125_000
    let queue = FIFOQueue()
    // Only the queue's items touch `lastSeen`, and they never overlap: no lock is needed, and
    // the thread sanitizer would report it if they did overlap.
    final class Tally: @unchecked Sendable {
      var lastSeen = [Int](repeating: -1, count: 8)
      var total = 0
      var outOfOrder = 0
    }
    let tally = Tally()
    DispatchQueue.concurrentPerform(iterations: producers) { producer in
      for index in 0..<perProducer {
        queue.enqueue {
          if tally.lastSeen[producer] + 1 != index { tally.outOfOrder += 1 }
          tally.lastSeen[producer] = index
          tally.total += 1
        }
      }
    }
    await queue.enqueueAndWait {}
    #expect(tally.total == producers * perProducer)
    #expect(tally.outOfOrder == 0)
    #expect(tally.lastSeen == [Int](repeating: perProducer - 1, count: producers))
  }
}
