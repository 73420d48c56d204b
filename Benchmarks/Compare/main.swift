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
  func increment() { count &+= 1 }
}

/// Rows that create their tasks from the main actor. Tasks that inherit the main actor cannot
/// start while the loop holds it, so when the loop ends all of them are alive: the peak memory
/// of these rows is mostly live tasks.
@MainActor
enum MainActorRows {
  static func fifoTasks(_ count: Int) async {
    let queue = FIFOQueue()
    var last: Task<Void, Never>?
    for _ in 0..<count { last = Task(on: queue) {} }
    await last?.value
  }

  static func taskChain(_ count: Int) async {
    var last: Task<Void, Never>?
    for _ in 0..<count { last = Task { [last] in await last?.value } }
    await last?.value
  }
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
  // The `Task(on:)` rows and their naive baselines (compared within one build), 200 k tasks each:
  // a million live tasks take over a gigabyte.
  // 200 k `Task(on:)` on a FIFO queue from nonisolated code, then await the last.
  "fifo-task": (
    200_000,
    {
      let queue = FIFOQueue()
      var last: Task<Void, Never>?
      for _ in 0..<200_000 { last = Task(on: queue) {} }
      await last?.value
    }
  ),
  // The naive chain: each task awaits the one before it.
  "chain": (
    200_000,
    {
      var last: Task<Void, Never>?
      for _ in 0..<200_000 { last = Task { [last] in await last?.value } }
      await last?.value
    }
  ),
  "fifo-task-main": (200_000, { await MainActorRows.fifoTasks(200_000) }),
  "chain-main": (200_000, { await MainActorRows.taskChain(200_000) }),
  // 200 k `Task(on:)` on an actor queue, then await the last.
  "actor-task": (
    200_000,
    {
      let counter = Counter()
      var last: Task<Void, Never>?
      for _ in 0..<200_000 { last = Task(on: counter.queue) { $0.count &+= 1 } }
      await last?.value
    }
  ),
  // The naive actor baseline: a plain task per item that hops onto the actor.
  "actor-naive": (
    200_000,
    {
      let counter = Counter()
      var last: Task<Void, Never>?
      for _ in 0..<200_000 { last = Task { await counter.increment() } }
      await last?.value
    }
  ),
  // 200 k `Task(on:)` on a CancellableQueue over a FIFO queue, then await the last.
  "cancellable-task": (
    200_000,
    {
      let queue = CancellableQueue(underlyingQueue: FIFOQueue())
      var last: Task<Void, Never>?
      for _ in 0..<200_000 { last = Task(on: queue) {} }
      await last?.value
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
let name = arguments[1]
// The main thread parks in `dispatchMain()`, so the main actor is free for the rows that need it.
Task.detached {
  let clock = ContinuousClock()
  let start = clock.now
  await row.body()
  let (seconds, attoseconds) = start.duration(to: clock.now).components
  let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  print(name, String(format: "%.1f", nanoseconds / Double(row.count)), String(format: "%.1f", peakMiB()))
  exit(0)
}
dispatchMain()
