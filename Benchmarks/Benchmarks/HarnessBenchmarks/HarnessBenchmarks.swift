import Benchmark
import QueueTesting

// The controlled executor's speed: how many jobs per second the driver steps through, and how
// many whole schedules per second a small body explores. Time is per job (per schedule for the
// second benchmark); the custom metrics give the rates directly.

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .peakMemoryResident],
    timeUnits: .nanoseconds,
    warmupIterations: 1,
    scalingFactor: .one,
    maxDuration: .seconds(20),
    maxIterations: 7
  )

  Benchmark(
    "ControlledExecutor stepping, yield-heavy body (10 tasks x 50k yields)",
    configuration: .init(
      metrics: [.wallClock, .peakMemoryResident, .custom("jobs/s", polarity: .prefersLarger, useScalingFactor: false)],
      scalingFactor: .mega)
  ) { benchmark in
    let clock = ContinuousClock()
    let start = clock.now
    let result = ControlledExecutor.runBlocking(seed: 1, stepBudget: 10_000_000) {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<10 {
          group.addTask {
            for _ in 0..<50_000 { await Task.yield() }
          }
        }
      }
    }
    let elapsed = start.duration(to: clock.now)
    precondition(result.outcome == .completed)
    benchmark.measurement(.custom("jobs/s", polarity: .prefersLarger, useScalingFactor: false), rate(result.steps, elapsed))
    blackHole(result.trace.hash)
  }

  Benchmark(
    "ControlledExecutor schedules, 10 tasks ~30 steps (1k schedules)",
    configuration: .init(
      metrics: [.wallClock, .custom("schedules/s", polarity: .prefersLarger, useScalingFactor: false)],
      scalingFactor: .kilo)
  ) { benchmark in
    let clock = ContinuousClock()
    let start = clock.now
    var steps = 0
    for seed in UInt64(0)..<1000 {
      let result = ControlledExecutor.runBlocking(seed: seed) {
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<10 {
            group.addTask { await Task.yield() }
          }
        }
      }
      steps += result.steps
    }
    let elapsed = start.duration(to: clock.now)
    benchmark.measurement(.custom("schedules/s", polarity: .prefersLarger, useScalingFactor: false), rate(1000, elapsed))
    blackHole(steps)
  }

  // Every actor hop is a scheduling point: 10 tasks each call an actor that calls another one,
  // so each task hops nonisolated -> actor -> other actor -> actor -> nonisolated.
  Benchmark(
    "ControlledExecutor schedules, 10 tasks x 2 actor hops (1k schedules)",
    configuration: .init(
      metrics: [
        .wallClock, .custom("schedules/s", polarity: .prefersLarger, useScalingFactor: false),
        .custom("jobs/run", polarity: .prefersSmaller, useScalingFactor: false),
      ],
      scalingFactor: .kilo)
  ) { benchmark in
    let clock = ContinuousClock()
    let start = clock.now
    var steps = 0
    for seed in UInt64(0)..<1000 {
      let result = ControlledExecutor.runBlocking(seed: seed) {
        let account = BenchmarkAccount()
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<10 {
            group.addTask { await account.withdraw(1) }
          }
        }
      }
      steps += result.steps
    }
    let elapsed = start.duration(to: clock.now)
    benchmark.measurement(.custom("schedules/s", polarity: .prefersLarger, useScalingFactor: false), rate(1000, elapsed))
    benchmark.measurement(.custom("jobs/run", polarity: .prefersSmaller, useScalingFactor: false), steps / 1000)
    blackHole(steps)
  }
}

actor BenchmarkAudit {
  var entries = 0
  func record() { entries += 1 }
}

actor BenchmarkAccount {
  var balance = 1_000
  let audit = BenchmarkAudit()

  func withdraw(_ amount: Int) async {
    balance -= amount
    await audit.record()
  }
}

func rate(_ count: Int, _ elapsed: Duration) -> Int {
  let (seconds, attoseconds) = elapsed.components
  return Int(Double(count) / (Double(seconds) + Double(attoseconds) / 1e18))
}
