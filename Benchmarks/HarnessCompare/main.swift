// One row of `Benchmarks/compare-harness.sh` per process:
// `harness-rows SHAPE N STRATEGY` prints `SHAPE-N-STRATEGY <µs per task> <steps per second> <steps per run>`.
// Each row runs its body under the controlled executor for a few schedules of one strategy and
// divides the time by the tasks and steps of those runs. Only API that every revision worth
// comparing has is used, so the same file builds against both.
import AsyncQueue
import Foundation
import QueueTesting

actor Counter {
  var count = 0
  func increment() { count &+= 1 }
}

/// The bodies: `count` tasks of one shape.
enum Shape: String {
  /// Plain `Task`s, each hopping onto one actor and back.
  case actorHops = "actor-hops"
  /// `Task(on: FIFOQueue)` items, each hopping onto an actor.
  case fifoItems = "fifo-items"
  /// A task group of `count` children, each hopping onto an actor.
  case taskGroup = "task-group"

  func body(_ count: Int) -> @Sendable () async -> Void {
    switch self {
    case .actorHops:
      return {
        let counter = Counter()
        var tasks: [Task<Void, Never>] = []
        tasks.reserveCapacity(count)
        for _ in 0..<count { tasks.append(Task { await counter.increment() }) }
        for task in tasks { await task.value }
        let total = await counter.count
        precondition(total == count)
      }
    case .fifoItems:
      return {
        let counter = Counter()
        let queue = FIFOQueue()
        var last: Task<Void, Never>?
        for _ in 0..<count { last = Task(on: queue) { await counter.increment() } }
        await last?.value
        let total = await counter.count
        precondition(total == count)
      }
    case .taskGroup:
      return {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<count { group.addTask { await counter.increment() } }
        }
        let total = await counter.count
        precondition(total == count)
      }
    }
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let shape = Shape(rawValue: arguments[1]), let count = Int(arguments[2]) else {
  print("usage: harness-rows actor-hops|fifo-items|task-group N random|pct|oldest|plain")
  exit(2)
}
let strategyName = arguments[3]
// Fewer schedules for larger bodies, so that each row takes about the same time.
let schedules = max(2, 20_000 / max(count, 1))
let body = shape.body(count)
if strategyName == "plain" {
  // The body on real threads, without the harness (never installed in this process): what the
  // runtime itself costs per task, which the harness's rows add to.
  let clock = ContinuousClock()
  let done = DispatchSemaphore(value: 0)
  let start = clock.now
  Task.detached {
    for _ in 0..<schedules { await body() }
    done.signal()
  }
  done.wait()
  let elapsed = start.duration(to: clock.now)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  print("\(shape.rawValue)-\(count)-plain \(seconds * 1e6 / Double(schedules * count)) 0 0")
  exit(0)
}
if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
  // One untimed run: the harness installs itself and warms up.
  _ = ControlledExecutor.runBlocking(seed: 0, stepBudget: 10_000_000, body)
  var steps = 0
  var expectedSteps = 1_000
  let clock = ContinuousClock()
  let start = clock.now
  for index in 0..<schedules {
    let seed = UInt64(index + 1)
    let result: RunResult
    switch strategyName {
    case "random":
      result = ControlledExecutor.runBlocking(strategy: SeededRandomStrategy(seed: seed), stepBudget: 10_000_000, body)
    case "pct":
      result = ControlledExecutor.runBlocking(
        strategy: PCTStrategy(seed: seed, depth: 3, expectedSteps: expectedSteps), stepBudget: 10_000_000, body)
    case "oldest":
      result = ControlledExecutor.runBlocking(
        strategy: ReplayStrategy(Schedule(choices: [])), stepBudget: 10_000_000, body)
    default:
      print("unknown strategy \(strategyName)")
      exit(2)
    }
    precondition(result.outcome == .completed, "\(result.outcome)")
    steps += result.steps
    expectedSteps = max(result.steps, 1)
  }
  let elapsed = start.duration(to: clock.now)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  let perTask = seconds * 1e6 / Double(schedules * count)
  let stepsPerSecond = Double(steps) / seconds
  print("\(shape.rawValue)-\(count)-\(strategyName) \(perTask) \(stepsPerSecond) \(steps / schedules)")
}
