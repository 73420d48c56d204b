// What the documentation of `ConcurrentQueue` and `AsyncSemaphore` promises, checked on real
// threads (the harness's tests check the same under every schedule it offers):
// - a concurrent queue never runs more than its width at once, runs a barrier alone, and with a
//   width of 1 starts and finishes items in enqueue order;
// - a semaphore whose waiter is cancelled while a signal races for it ends with the waiter
//   holding the permit and none free, or the waiter without it and the permit free.
// Exits 1 on the first run that breaks one, naming it.
@_spi(Diagnostics) import AsyncQueue
import Foundation
import Synchronization

final class Tally: Sendable {
  private let state = Mutex<(running: Int, maximum: Int, barrier: Bool, besideBarrier: Int, log: [Int])>(
    (0, 0, false, 0, []))

  func enter(_ index: Int, barrier: Bool) {
    state.withLock {
      $0.running += 1
      $0.maximum = max($0.maximum, $0.running)
      if $0.barrier || (barrier && $0.running > 1) { $0.besideBarrier += 1 }
      if barrier { $0.barrier = true }
      $0.log.append(index)
    }
  }

  func leave(_ index: Int, barrier: Bool) {
    state.withLock {
      $0.running -= 1
      if barrier { $0.barrier = false }
      $0.log.append(-index - 1)
    }
  }

  var result: (maximum: Int, besideBarrier: Int, log: [Int]) {
    state.withLock { ($0.maximum, $0.besideBarrier, $0.log) }
  }
}

func fail(_ message: String) -> Never {
  print("queue-guarantees: \(message)")
  exit(1)
}

/// One run of `count` items of every form on a queue of `width`; every fourth item a barrier.
func concurrentQueueRun(width: Int, count: Int) async -> (maximum: Int, besideBarrier: Int, log: [Int]) {
  let queue = ConcurrentQueue(width: width)
  let tally = Tally()
  var tasks: [Task<Void, Never>] = []
  for index in 0..<count {
    let barrier = index % 4 == 3
    let work: @Sendable () async -> Void = {
      tally.enter(index, barrier: barrier)
      for _ in 0..<(index % 3) { await Task.yield() }
      tally.leave(index, barrier: barrier)
    }
    switch (index % 3, barrier) {
    case (0, false): queue.enqueue(work)
    case (0, true): queue.enqueueBarrier(work)
    case (1, false): tasks.append(Task(on: queue) { await work() })
    case (1, true): tasks.append(Task(barrierOn: queue) { await work() })
    case (_, false): tasks.append(Task { await queue.enqueueAndWait { await work() } })
    case (_, true): tasks.append(Task { await queue.enqueueBarrierAndWait { await work() } })
    }
  }
  for task in tasks { await task.value }
  await queue.enqueueBarrierAndWait {}
  return tally.result
}

let runs = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 300

for width in [1, 2, 4] {
  for run in 0..<runs {
    let (maximum, besideBarrier, log) = await concurrentQueueRun(width: width, count: 24)
    if maximum > width { fail("width \(width), run \(run): \(maximum) items ran at once") }
    if besideBarrier > 0 { fail("width \(width), run \(run): an item ran beside a barrier") }
    // Items enqueued by `enqueueAndWait` take their place when their task runs; the others at
    // the call, in index order.
    let starts = stride(from: 0, to: log.count, by: 2).map { log[$0] }
    let enqueuedAtTheCall = starts.filter { $0 % 3 != 2 }
    if width == 1
      && (log != starts.flatMap({ [$0, -$0 - 1] }) || enqueuedAtTheCall != enqueuedAtTheCall.sorted())
    {
      fail("width 1, run \(run): items did not start and finish in enqueue order: \(log)")
    }
  }
  print("queue-guarantees: concurrent queue of width \(width): \(runs) runs of 24 items, guarantees kept")
}

var holds = 0
for run in 0..<(runs * 20) {
  let semaphore = AsyncSemaphore(value: 0)
  let waiter = Task { () -> Bool in
    do {
      try await semaphore.waitUnlessCancelled()
      return true
    } catch {
      return false
    }
  }
  // The waiter is in line before the signal and the cancellation race for it.
  while semaphore.permitCounts.waiting == 0 { await Task.yield() }
  async let signalled: Bool = semaphore.signal()
  async let cancelled: Void = waiter.cancel()
  _ = await (signalled, cancelled)
  let held = await waiter.value
  if held { holds += 1 }
  let (free, waiting) = semaphore.permitCounts
  if waiting != 0 || free != (held ? 0 : 1) {
    fail("semaphore, run \(run): the waiter \(held ? "holds" : "does not hold") a permit, and \(free) are free")
  }
}
print(
  "queue-guarantees: semaphore: \(runs * 20) cancellations racing a signal, \(holds) waiters kept the permit, none lost or doubled"
)
