// `linearizability-timings`: what `Benchmarks/linearizability.sh` prints, one row per line:
//   checker-15        p50 p99 max (µs) of deciding 2,000 histories of 15 operations (3 tasks × 5, one key)
//   checker-1000      median max (ms) of deciding 20 histories of 1,000 operations over 4 tasks and
//                     50 keys, split by key
//   scenario-runs     schedules per second of a LinearizabilityCheck of a correct counter (20 scenarios)
//   peak-rss          the process's peak resident memory (MB)
// Every other history has one wrong result: a verdict that is not the expected one is counted.
@_spi(Benchmarks) import QueueTesting
import Foundation

func microseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func at(_ sorted: [Double], _ fraction: Double) -> Double {
  sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

let small = CheckerBenchmark.decide(histories: 2_000, operations: 15, tasks: 3, keys: 1, partitioned: false, seed: 1)
let smallTimes = small.map { microseconds($0.time) }.sorted()
print(
  String(
    format: "checker-15 p50 %.1f µs, p99 %.1f µs, max %.1f µs; %d of %d verdicts as expected",
    at(smallTimes, 0.5), at(smallTimes, 0.99), smallTimes.last!, small.filter(\.correct).count, small.count))

let large = CheckerBenchmark.decide(histories: 20, operations: 1_000, tasks: 4, keys: 50, partitioned: true, seed: 7)
let largeTimes = large.map { microseconds($0.time) / 1_000 }.sorted()
print(
  String(
    format: "checker-1000 median %.2f ms, max %.2f ms; %d of %d verdicts as expected",
    at(largeTimes, 0.5), largeTimes.last!, large.filter(\.correct).count, large.count))

struct CounterModel: SequentialModel {
  enum Operation: Hashable, Sendable { case increment, get }
  var value = 0
  mutating func apply(_ operation: Operation) -> ModelStep<Int> {
    if operation == .increment { value += 1 }
    return .returns(value)
  }
}

actor Counter {
  private var value = 0
  func increment() -> Int {
    value += 1
    return value
  }
  func get() -> Int { value }
}

if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
  let check = LinearizabilityCheck(
    model: CounterModel(),
    operations: { random in Bool.random(using: &random) ? .increment : .get },
    make: { Counter() },
    perform: { counter, operation in
      operation == .increment ? await counter.increment() : await counter.get()
    })
  let start = ContinuousClock.now
  let report = await check.run(environment: [:])
  let seconds = microseconds(ContinuousClock.now - start) / 1e6
  print(
    String(
      format: "scenario-runs %.0f schedules/s (%d scenarios, %d schedules in %.2f s, passed: %@)",
      Double(report.schedulesRun) / seconds, report.scenariosRun, report.schedulesRun, seconds,
      report.passed ? "yes" : "no"))
}

var usage = rusage()
#if os(Linux)
  getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
  let peakBytes = Double(usage.ru_maxrss) * 1024   // kilobytes on Linux
#else
  getrusage(RUSAGE_SELF, &usage)
  let peakBytes = Double(usage.ru_maxrss)   // bytes on Darwin
#endif
print(String(format: "peak-rss %.1f MB", peakBytes / 1_048_576))
