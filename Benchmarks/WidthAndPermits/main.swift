// One row of `Benchmarks/width-and-permits.sh` per process: `width-rows ROW` prints
// `ROW <ns per item> <peak resident MiB>`. Rows for `ConcurrentQueue` and `AsyncSemaphore`, and
// baselines that do the same work with the runtime alone (a task group, a `DispatchQueue`).
@_spi(Diagnostics) import AsyncQueue
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Peak resident memory in MiB (`getrusage`: KiB on Linux, bytes on Darwin).
func peakMiB() -> Double {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1_024
  #endif
}

/// 100,000 trivial items through a queue of width 4, a barrier every 100 items.
func widthFourWithBarriers() async {
  let queue = ConcurrentQueue(width: 4)
  for index in 1...100_000 {
    if index % 100 == 0 { queue.enqueueBarrier {} } else { queue.enqueue {} }
  }
  await queue.enqueueBarrierAndWait {}
}

/// The same shape on a concurrent `DispatchQueue` (synchronous blocks, a barrier every 100).
func dispatchWithBarriers() async {
  let queue = DispatchQueue(label: "rows", attributes: .concurrent)
  for index in 1...100_000 {
    if index % 100 == 0 { queue.async(flags: .barrier) {} } else { queue.async {} }
  }
  await withCheckedContinuation { done in queue.async(flags: .barrier) { done.resume() } }
}

/// `pending` items wait behind a held item; then the held item finishes and the queue drains.
/// The time is for enqueueing and draining them all, per item: flat in `pending` when neither
/// costs more the longer the line.
func drainBehindAHeldItem(pending: Int) async {
  let queue = ConcurrentQueue(width: 4)
  let gate = AsyncSemaphore(value: 0)
  for _ in 0..<4 { queue.enqueue { await gate.wait() } }
  for _ in 0..<pending { queue.enqueue {} }
  for _ in 0..<4 { gate.signal() }
  await queue.enqueueBarrierAndWait {}
}

/// 1,000,000 `wait`/`signal` pairs on a semaphore nobody else uses.
func uncontendedPairs() async {
  let semaphore = AsyncSemaphore(value: 1)
  for _ in 0..<1_000_000 {
    await semaphore.wait()
    semaphore.signal()
  }
}

/// 10,000 tasks wait on an empty semaphore; once all are in line, 10,000 signals wake them. The
/// time is for the waking.
func wakeInOrder() async -> Duration {
  final class Woken: Sendable {
    let count = Mutex(0)
  }
  let semaphore = AsyncSemaphore(value: 0)
  let woken = Woken()
  var tasks: [Task<Void, Never>] = []
  tasks.reserveCapacity(10_000)
  for _ in 0..<10_000 {
    tasks.append(
      Task {
        await semaphore.wait()
        woken.count.withLock { $0 += 1 }
      })
  }
  // Every waiter in line before the first signal (counted, not slept for).
  while semaphore.permitCounts.waiting < 10_000 { await Task.yield() }
  let start = ContinuousClock.now
  for _ in 0..<10_000 { semaphore.signal() }
  for task in tasks { await task.value }
  let elapsed = ContinuousClock.now - start
  precondition(woken.count.withLock { $0 } == 10_000, "a waiter was not woken")
  return elapsed
}

let rows: [String: (count: Int, body: @Sendable () async -> Duration?)] = [
  "width4-barrier100": (
    100_000,
    {
      await widthFourWithBarriers()
      return nil
    }
  ),
  "dispatch-barrier100": (
    100_000,
    {
      await dispatchWithBarriers()
      return nil
    }
  ),
  "pending-1k": (
    1_000,
    {
      await drainBehindAHeldItem(pending: 1_000)
      return nil
    }
  ),
  "pending-100k": (
    100_000,
    {
      await drainBehindAHeldItem(pending: 100_000)
      return nil
    }
  ),
  "semaphore-pairs": (
    1_000_000,
    {
      await uncontendedPairs()
      return nil
    }
  ),
  "semaphore-wake-10k": (10_000, { await wakeInOrder() }),
]

let name = CommandLine.arguments.dropFirst().first ?? ""
guard let row = rows[name] else {
  print("usage: width-rows \(rows.keys.sorted().joined(separator: "|"))")
  exit(2)
}
let start = ContinuousClock.now
let measured = await row.body()
let elapsed = measured ?? (ContinuousClock.now - start)
let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
print(name, nanoseconds / Double(row.count), peakMiB())
