import AsyncQueue
import Benchmark
import HeapStatistics

// Each benchmark runs 1 M items per iteration (`scalingFactor: .mega`), so the reported time
// and malloc count are per item; peak RSS is for the whole process. Naive baselines run in the same process and run:
// the machines here vary too much to compare against remembered numbers.

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: 1,
    scalingFactor: .one,
    maxDuration: .seconds(20),
    maxIterations: 7
  )
  let million = 1_000_000
  /// A row that measures a workload run from the main actor, a million items per iteration. A
  /// workload whose tasks are all alive at the end of its creation loop reports the heap each of
  /// them holds (``liveTaskHeap``).
  func mainActorBenchmark(_ name: String, _ workload: @escaping @MainActor @Sendable (Int) async -> Int?) {
    let metrics = Benchmark.defaultConfiguration.metrics + [liveTaskHeap]
    Benchmark(name, configuration: .init(metrics: metrics, scalingFactor: .mega)) { benchmark in
      benchmark.startMeasurement()
      let heapPerTask = await workload(million)
      benchmark.stopMeasurement()
      if let heapPerTask { benchmark.measurement(liveTaskHeap, heapPerTask) }
    }
  }

  Benchmark(
    "FIFOQueue 1M enqueue {} + enqueueAndWait",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let queue = FIFOQueue()
    benchmark.startMeasurement()
    for _ in 0..<million { queue.enqueue {} }
    await queue.enqueueAndWait {}
    benchmark.stopMeasurement()
  }

  Benchmark(
    "FIFOQueue 1M sequential enqueueAndWait",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let queue = FIFOQueue()
    var sum = 0
    benchmark.startMeasurement()
    for index in 0..<million { sum &+= await queue.enqueueAndWait { index } }
    benchmark.stopMeasurement()
    blackHole(sum)
  }

  Benchmark(
    "FIFOQueue 1M Task(on:) + await last",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let queue = FIFOQueue()
    benchmark.startMeasurement()
    var last: Task<Void, Never>?
    for _ in 0..<million { last = Task(on: queue) {} }
    await last?.value
    benchmark.stopMeasurement()
  }

  // `Task(on:)` created from the main actor, the way an app creates it from UI code: the operation
  // inherits the main actor. Each row has its naive baseline, a chain of plain tasks each awaiting
  // the previous one, created the same way.
  mainActorBenchmark("FIFOQueue 1M Task(on:) from the main actor + await last", MainActorWorkload.fifoTasks)

  mainActorBenchmark("Baseline Task chain from the main actor, 1M items", MainActorWorkload.taskChain)

  Benchmark(
    "FIFOQueue 1M Task(on:isolatedTo:) + await last",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let queue = FIFOQueue()
    let target = Target()
    benchmark.startMeasurement()
    var last: Task<Void, Never>?
    for _ in 0..<million { last = Task(on: queue, isolatedTo: target) { $0.count &+= 1 } }
    await last?.value
    benchmark.stopMeasurement()
  }

  Benchmark(
    "CancellableQueue<FIFOQueue> 1M Task(on:) + await last",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let queue = CancellableQueue(underlyingQueue: FIFOQueue())
    benchmark.startMeasurement()
    var last: Task<Void, Never>?
    for _ in 0..<million { last = Task(on: queue) {} }
    await last?.value
    benchmark.stopMeasurement()
  }

  mainActorBenchmark("MainActor.queue 1M Task(on:) from the main actor + await last", MainActorWorkload.mainQueueTasks)

  mainActorBenchmark("ActorQueue 1M Task(on:) from the main actor + await last", MainActorWorkload.actorTasks)

  Benchmark(
    "ActorQueue 1M enqueue + enqueueAndWait",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let target = Target()
    benchmark.startMeasurement()
    for _ in 0..<million { target.queue.enqueue { $0.count &+= 1 } }
    await target.queue.enqueueAndWait { _ in }
    benchmark.stopMeasurement()
    blackHole(await target.count)
  }

  Benchmark(
    "ActorQueue 1M Task(on:) + await last",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let target = Target()
    benchmark.startMeasurement()
    var last: Task<Void, Never>?
    for _ in 0..<million { last = Task(on: target.queue) { $0.count &+= 1 } }
    await last?.value
    benchmark.stopMeasurement()
  }

  Benchmark(
    "Baseline AsyncStream + 1 consumer, 1M items",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let (continuation, consumer) = makeStreamConsumer()
    benchmark.startMeasurement()
    for _ in 0..<million { continuation.yield {} }
    continuation.finish()
    await consumer.value
    benchmark.stopMeasurement()
  }

  Benchmark(
    "Baseline AsyncStream 1M sequential round trips",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let (continuation, consumer) = makeStreamConsumer()
    benchmark.startMeasurement()
    for _ in 0..<million {
      await withUnsafeContinuation { (done: UnsafeContinuation<Void, Never>) in
        continuation.yield { done.resume() }
      }
    }
    benchmark.stopMeasurement()
    continuation.finish()
    await consumer.value
  }

  Benchmark(
    "Baseline Task.immediate per item on an actor, 1M items",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    // The floor for ActorQueue.enqueue: an actor queue must give each item a task of its own,
    // because an item that suspends must not hold up the next one.
    let target = Target()
    benchmark.startMeasurement()
    await target.startImmediately(million)
    benchmark.stopMeasurement()
    blackHole(await target.count)
  }

  // The naive baseline of the actor-queue rows: a plain task per item that hops onto the actor.
  mainActorBenchmark(
    "Baseline Task per item hopping onto an actor from the main actor, 1M items",
    MainActorWorkload.tasksHoppingOntoAnActor)

  Benchmark(
    "Baseline Task per item hopping onto an actor, 1M items",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let target = Target()
    benchmark.startMeasurement()
    var last: Task<Void, Never>?
    for _ in 0..<million { last = Task { await target.increment() } }
    await last?.value
    benchmark.stopMeasurement()
  }

  Benchmark(
    "Baseline Task chain, 1M items",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    benchmark.startMeasurement()
    var previous: Task<Void, Never>?
    for _ in 0..<million {
      previous = Task { [previous] in await previous?.value }
    }
    await previous?.value
    benchmark.stopMeasurement()
  }
}

/// The naive baseline: an AsyncStream of closures read by one consumer task, which runs them in order.
func makeStreamConsumer() -> (AsyncStream<@Sendable () async -> Void>.Continuation, Task<Void, Never>) {
  let (stream, continuation) = AsyncStream<@Sendable () async -> Void>.makeStream()
  let consumer = Task {
    for await job in stream { await job() }
  }
  return (continuation, consumer)
}

actor Target {
  var count = 0
  let queue = ActorQueue<Target>()
  init() { queue.adoptExecutionContext(of: self) }

  func increment() { count &+= 1 }

  func startImmediately(_ count: Int) {
    for _ in 0..<count { Task.immediate { self.count &+= 1 } }
  }
}

/// The heap a task holds while it is alive: malloc's bytes in use after a loop that created tasks
/// none of which could start yet, less those before it, per task. Peak RSS cannot say this: the
/// process keeps the memory of earlier iterations.
let liveTaskHeap = BenchmarkMetric.custom("Heap per live task (bytes)", useScalingFactor: false)

/// The bytes malloc has handed out and not taken back, or nil where the allocator cannot say.
func heapBytesInUse() -> Int? {
  let bytes = heap_bytes_in_use()
  return bytes == 0 ? nil : Int(bytes)
}

/// The workloads that create their tasks from the main actor (the benchmark measures around the
/// call: `Benchmark` itself cannot cross to the main actor). Tasks that inherit the main actor
/// cannot start while the creating loop holds it, so at its end every one of them is alive; those
/// workloads return the heap per live task.
@MainActor
enum MainActorWorkload {
  static func fifoTasks(_ count: Int) async -> Int? {
    let queue = FIFOQueue()
    return await createTasks(count, allAliveAtTheEnd: true) { _ in Task(on: queue) {} }
  }

  static func taskChain(_ count: Int) async -> Int? {
    await createTasks(count, allAliveAtTheEnd: true) { previous in Task { await previous?.value } }
  }

  static func mainQueueTasks(_ count: Int) async -> Int? {
    await createTasks(count, allAliveAtTheEnd: true) { _ in Task(on: MainActor.queue) {} }
  }

  /// Not a live-task figure: the actor runs these tasks while the loop creates them.
  static func actorTasks(_ count: Int) async -> Int? {
    let target = Target()
    return await createTasks(count, allAliveAtTheEnd: false) { _ in Task(on: target.queue) { $0.count &+= 1 } }
  }

  /// The naive baseline of `actorTasks`: a plain task per item that hops onto the actor.
  static func tasksHoppingOntoAnActor(_ count: Int) async -> Int? {
    let target = Target()
    return await createTasks(count, allAliveAtTheEnd: false) { _ in Task { await target.increment() } }
  }

  /// Creates `count` tasks in a loop (`create` is given the task before, for a chain) and awaits
  /// the last. Returns the heap per live task if `allAliveAtTheEnd`, read as the loop ends.
  private static func createTasks(
    _ count: Int, allAliveAtTheEnd: Bool, _ create: (Task<Void, Never>?) -> Task<Void, Never>
  ) async -> Int? {
    let before = allAliveAtTheEnd ? heapBytesInUse() : nil
    var last: Task<Void, Never>?
    for _ in 0..<count { last = create(last) }
    var perTask: Int?
    if let before, let after = heapBytesInUse() { perTask = (after - before) / count }
    await last?.value
    return perTask
  }
}
