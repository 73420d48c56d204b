import AsyncOperations
import Dispatch
import Foundation
import QueueTestingEngine
import QueueWorkloads
import Testing

@testable import AsyncQueue

/// Tests wait for operations without blocking a thread: Swift Testing runs tests on the
/// cooperative pool, and the async form needs a pool thread to finish.
@Suite("AsyncOperation with Foundation's OperationQueue", .timeLimit(.minutes(5)), .hangGuard)
struct AsyncOperationTests {
  /// With one operation at a time, the next operation starts only after the previous one's
  /// finish callback, which comes later from another thread.
  @Test func serialQueueWaitsForEachFinish() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let log = EventLog<String>()
    let operations = (1...5).map { number in
      AsyncOperation { finish in
        log.append("start \(number)")
        DispatchQueue.global().async {
          log.append("end \(number)")
          finish()
        }
      }
    }
    await run(operations, on: queue)
    #expect(log.snapshot == (1...5).flatMap { ["start \($0)", "end \($0)"] })
    #expect(operations.allSatisfy { $0.isFinished && !$0.isExecuting })
  }

  /// A dependent operation starts only after the operation it depends on called finish, even
  /// on a queue that runs many operations at once.
  @Test func dependenciesWaitForTheFinishCallback() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 4
    let log = EventLog<String>()
    let download = AsyncOperation { finish in
      DispatchQueue.global().async {
        log.append("downloaded")
        finish()
      }
    }
    let save = AsyncOperation {
      log.append("saved")
    }
    save.addDependency(download)
    await run([save, download], on: queue)
    #expect(log.snapshot == ["downloaded", "saved"])
  }

  /// The async form is finished when its closure returns, after its suspensions.
  @Test func asyncFormFinishesWhenTheClosureReturns() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let log = EventLog<String>()
    let first = AsyncOperation {
      await Task.yield()
      log.append("first")
    }
    let second = AsyncOperation { log.append("second") }
    await run([first, second], on: queue)
    #expect(log.snapshot == ["first", "second"])
  }

  /// An operation cancelled before it starts finishes without running; a second finish call
  /// changes nothing but reports a diagnostic naming the operation, as a CompletionQueue item's
  /// second call does.
  @Test func cancelledBeforeStartAndSecondFinish() async {
    let queue = OperationQueue()
    let ran = LockedState<Int>.make(0)
    let reports = LockedState<[String]>.make([])
    let cancelled = AsyncOperation { finish in
      ran.withLock { $0 += 1 }
      finish()
    }
    cancelled.cancel()
    let report: @Sendable (String) -> Void = { message in reports.withLock { $0.append(message) } }
    let twice = AsyncOperation(diagnostic: report) { finish in
      ran.withLock { $0 += 1 }
      finish()
      finish()
    }
    twice.name = "save"
    await run([cancelled, twice], on: queue)
    #expect(ran.withLock { $0 } == 1)
    #expect(cancelled.isFinished && twice.isFinished)
    #expect(reports.withLock { $0 } == ["finish() of operation 'save' was called again; ignored"])
  }

  /// Cancelling a running async-form operation cancels its task; the queue still waits for it.
  @Test func cancellingTheAsyncFormCancelsItsTask() async {
    let queue = OperationQueue()
    let started = TestGate("gate")
    let sawCancellation = LockedState<Bool>.make(false)
    let operation = AsyncOperation {
      started.open()
      while !Task.isCancelled { await Task.yield() }
      sawCancellation.withLock { $0 = true }
    }
    let finished = Task { await run([operation], on: queue) }
    await started.wait()
    operation.cancel()
    await finished.value
    #expect(sawCancellation.withLock { $0 })
    #expect(operation.isFinished)
  }
}

/// Adds `operations` to `queue` and returns once all of them finished, without blocking.
func run(_ operations: [Operation], on queue: OperationQueue) async {
  await withCheckedContinuation { continuation in
    let done = BlockOperation { continuation.resume() }
    for operation in operations { done.addDependency(operation) }
    queue.addOperations(operations + [done], waitUntilFinished: false)
  }
}
