// One row of `Benchmarks/compare.sh` per process: `queue-rows ROW` prints
// `ROW <ns per item> <peak resident MiB>`. A process per row keeps one row's memory out of the
// next; the script runs the rows of two builds in turns. Only API that every revision worth
// comparing has (the 0.6-style calls) is used, so the same file builds against both.
import AsyncQueue
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

actor Counter {
  var count = 0
  let queue = ActorQueue<Counter>()
  init() { queue.adoptExecutionContext(of: self) }
}

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

let rows: [String: (count: Int, body: @Sendable () async -> Void)] = [
  // 1 M `enqueue {}` from nonisolated code, then wait for the last.
  "enqueue": (
    1_000_000,
    {
      let queue = FIFOQueue()
      for _ in 0..<1_000_000 { queue.enqueue {} }
      await queue.enqueueAndWait {}
    }
  ),
  // 1 M `ActorQueue.enqueue` onto an actor, then flush.
  "actor-enqueue": (
    1_000_000,
    {
      let counter = Counter()
      for _ in 0..<1_000_000 { counter.queue.enqueue { $0.count &+= 1 } }
      await counter.queue.enqueueAndWait { _ in }
    }
  ),
  // 100 k sequential `enqueueAndWait`.
  "enqueue-and-wait": (
    100_000,
    {
      let queue = FIFOQueue()
      var sum = 0
      for index in 0..<100_000 { sum &+= await queue.enqueueAndWait { index } }
      precondition(sum > 0)
    }
  ),
]

let arguments = CommandLine.arguments
guard arguments.count == 2, let row = rows[arguments[1]] else {
  FileHandle.standardError.write(Data("usage: queue-rows \(rows.keys.sorted().joined(separator: "|"))\n".utf8))
  exit(2)
}
let done = DispatchSemaphore(value: 0)
let elapsed = Locked(Duration.zero)
Task.detached {
  let clock = ContinuousClock()
  let start = clock.now
  await row.body()
  elapsed.set(start.duration(to: clock.now))
  done.signal()
}
done.wait()
let (seconds, attoseconds) = elapsed.get().components
let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
print(arguments[1], String(format: "%.1f", nanoseconds / Double(row.count)), String(format: "%.1f", peakMiB()))

/// A value behind a lock, to hand the time out of the task.
final class Locked<Value: Sendable>: @unchecked Sendable {  // safe: every access holds `lock`
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func get() -> Value { lock.withLock { value } }
  func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
