import Dispatch
import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("CompletionQueue", .timeLimit(.minutes(5)), .hangGuard)
struct CompletionQueueTests {
  actor Worker {
    var started = 0
    func didStart() { started += 1 }
  }

  /// Finish callbacks called from other threads (Dispatch's pool) end each item's turn; items
  /// start in order, one at a time, on the main actor by default and on a given actor otherwise.
  @Test func finishFromOtherThreadsKeepsOrder() async {
    let queue = CompletionQueue(name: "threads")
    let log = EventLog<String>()
    let worker = Worker()
    for number in 0..<200 {
      if number.isMultiple(of: 2) {
        queue.enqueue { finish in
          MainActor.assertIsolated()
          log.append("start \(number)")
          DispatchQueue.global().async {
            log.append("end \(number)")
            finish()
          }
        }
      } else {
        queue.enqueue(on: worker) { worker, finish in
          worker.didStart()
          log.append("start \(number)")
          DispatchQueue.global().async {
            log.append("end \(number)")
            finish()
          }
        }
      }
    }
    await queue.waitUntilFinished()
    #expect(log.snapshot == (0..<200).flatMap { ["start \($0)", "end \($0)"] })
    #expect(await worker.started == 100)
  }

  /// `waitUntilFinished` on an idle queue returns at once; an item may finish at once.
  @Test func waitingOnAnIdleQueueReturns() async {
    let queue = CompletionQueue()
    await queue.waitUntilFinished()
    queue.enqueue { finish in finish() }
    await queue.waitUntilFinished()
    #expect(!queue.isPaused)
  }
}
