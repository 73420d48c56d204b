import AsyncQueue
import Benchmark

// Each benchmark measures one whole workload per iteration and divides by `scaledIterations`
// items, so the reported time is per item. Naive baselines run in the same process and run:
// the machines here vary too much to compare against remembered numbers (findings §4).

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: 1,
    scalingFactor: .one,
    maxDuration: .seconds(20),
    maxIterations: 5
  )
  let million = 1_000_000
  let hundredThousand = 100_000

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
    "FIFOQueue 100k sequential enqueueAndWait",
    configuration: .init(scalingFactor: .kilo)
  ) { benchmark in
    let queue = FIFOQueue()
    var sum = 0
    benchmark.startMeasurement()
    for index in 0..<hundredThousand { sum &+= await queue.enqueueAndWait { index } }
    benchmark.stopMeasurement()
    blackHole(sum)
  }

  Benchmark(
    "FIFOQueue 100k Task(on:) + await last",
    configuration: .init(scalingFactor: .kilo)
  ) { benchmark in
    let queue = FIFOQueue()
    benchmark.startMeasurement()
    var last: Task<Void, Never>?
    for _ in 0..<hundredThousand { last = Task(on: queue) {} }
    await last?.value
    benchmark.stopMeasurement()
  }

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
    "ActorQueue 100k Task(on:) + await last",
    configuration: .init(scalingFactor: .kilo)
  ) { benchmark in
    let target = Target()
    benchmark.startMeasurement()
    var last: Task<Void, Never>?
    for _ in 0..<hundredThousand { last = Task(on: target.queue) { $0.count &+= 1 } }
    await last?.value
    benchmark.stopMeasurement()
  }

  Benchmark(
    "Baseline AsyncStream + 1 consumer, 1M items",
    configuration: .init(scalingFactor: .mega)
  ) { benchmark in
    let (stream, continuation) = AsyncStream<@Sendable () async -> Void>.makeStream()
    let consumer = Task {
      for await job in stream { await job() }
    }
    benchmark.startMeasurement()
    for _ in 0..<million { continuation.yield {} }
    continuation.finish()
    await consumer.value
    benchmark.stopMeasurement()
  }

  Benchmark(
    "Baseline AsyncStream 100k sequential round trips",
    configuration: .init(scalingFactor: .kilo)
  ) { benchmark in
    let (stream, continuation) = AsyncStream<@Sendable () async -> Void>.makeStream()
    let consumer = Task {
      for await job in stream { await job() }
    }
    benchmark.startMeasurement()
    for _ in 0..<hundredThousand {
      await withUnsafeContinuation { (done: UnsafeContinuation<Void, Never>) in
        continuation.yield { done.resume() }
      }
    }
    benchmark.stopMeasurement()
    continuation.finish()
    await consumer.value
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

actor Target {
  var count = 0
  let queue = ActorQueue<Target>()
  init() { queue.adoptExecutionContext(of: self) }
}
