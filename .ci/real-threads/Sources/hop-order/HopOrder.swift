import AsyncQueue

// Each cell starts tasks in order on one executor (the departure); each task hops straight to
// another (the arrival) and records its number there. A run is out of order when the numbers
// arrive in another order. Prints one line per cell: "<departure> -> <arrival>: K of R runs out
// of order". The departures on a serial executor must print 0.

enum Departure: String, CaseIterable, Sendable {
  case mainActor = "the main actor"
  case mainActorQueue = "MainActor.queue"
  case defaultActor = "a default actor"
  case customExecutor = "an actor on a custom executor"
  case actorMethodUnisolated = "an actor method, not isolated (generic executor)"
  case detached = "detached tasks (generic executor)"

  var keepsOrder: Bool {
    switch self {
    case .mainActor, .mainActorQueue, .defaultActor, .customExecutor: true
    case .actorMethodUnisolated, .detached: false
    }
  }
}

enum Arrival: String, CaseIterable, Sendable {
  case idleActor = "an idle default actor"
  case busyActor = "a busy default actor"
  case mainActor = "the main actor"
  case customExecutor = "an actor on a custom executor"
}

actor OrderLog {
  private(set) var numbers: [Int] = []
  func record(_ number: Int) { numbers.append(number) }

  /// Holds the actor for a moment, so that tasks arriving meanwhile queue behind it.
  func keepBusy() {
    var spin = 0
    for step in 0..<200_000 { spin &+= step }
    if spin == -1 { numbers.append(-1) }
  }
}

actor MainExecutorLog {
  nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
  private(set) var numbers: [Int] = []
  func record(_ number: Int) { numbers.append(number) }
}

@MainActor enum MainOrder {
  static var numbers: [Int] = []
  static func append(_ number: Int) { numbers.append(number) }
}

struct Target: Sendable {
  let arrival: Arrival
  let log = OrderLog()
  let mainBacked = MainExecutorLog()

  /// Runs on the caller's isolation, then hops straight to the arrival.
  func record(_ number: Int, isolation: isolated (any Actor)? = #isolation) async {
    switch arrival {
    case .idleActor, .busyActor: await log.record(number)
    case .mainActor: await MainOrder.append(number)
    case .customExecutor: await mainBacked.record(number)
    }
  }

  @MainActor func order() async -> [Int] {
    switch arrival {
    case .idleActor, .busyActor: return await log.numbers
    case .mainActor:
      defer { MainOrder.numbers = [] }
      return MainOrder.numbers
    case .customExecutor: return await mainBacked.numbers
    }
  }
}

actor DepartureActor {
  private var started = 0

  func start(count: Int, isolated: Bool, to target: Target) -> [Task<Void, Never>] {
    (0..<count).map { number in
      if isolated {
        return Task {
          self.started += 1
          await target.record(number)
        }
      }
      return Task { await target.record(number) }
    }
  }
}

actor MainExecutorDepartureActor {
  nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
  private var started = 0

  func start(count: Int, to target: Target) -> [Task<Void, Never>] {
    (0..<count).map { number in
      Task {
        self.started += 1
        await target.record(number)
      }
    }
  }
}

func start(_ departure: Departure, count: Int, to target: Target) async -> [Task<Void, Never>] {
  switch departure {
  case .mainActor:
    return (0..<count).map { number in Task { @MainActor in await target.record(number) } }
  case .mainActorQueue:
    return (0..<count).map { number in Task(on: MainActor.queue) { await target.record(number) } }
  case .defaultActor:
    return await DepartureActor().start(count: count, isolated: true, to: target)
  case .customExecutor:
    return await MainExecutorDepartureActor().start(count: count, to: target)
  case .actorMethodUnisolated:
    return await DepartureActor().start(count: count, isolated: false, to: target)
  case .detached:
    return (0..<count).map { number in Task.detached { await target.record(number) } }
  }
}

/// One run of a cell, started from a task on the generic executor (as a test body is): whether
/// the numbers arrived in order.
func runInOrder(_ departure: Departure, _ arrival: Arrival, count: Int) async -> Bool {
  await Task.detached {
    let target = Target(arrival: arrival)
    let busy = arrival == .busyActor ? Task { await target.log.keepBusy() } : nil
    let tasks = await start(departure, count: count, to: target)
    for task in tasks { await task.value }
    await busy?.value
    return await target.order() == Array(0..<count)
  }.value
}

@main
struct HopOrder {
  static func main() async {
    let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
    let runs = arguments.first ?? 500
    let count = arguments.dropFirst().first ?? 20
    var failures = 0
    for departure in Departure.allCases {
      for arrival in Arrival.allCases {
        let onMain: Set<Departure> = [.mainActor, .mainActorQueue, .customExecutor]
        if onMain.contains(departure) && [.mainActor, .customExecutor].contains(arrival) { continue }
        var outOfOrder = 0
        for _ in 0..<runs where !(await runInOrder(departure, arrival, count: count)) { outOfOrder += 1 }
        let verdict = departure.keepsOrder ? (outOfOrder == 0 ? "keeps order" : "REORDERED") : "may reorder"
        if departure.keepsOrder && outOfOrder > 0 { failures += 1 }
        print("\(departure.rawValue) -> \(arrival.rawValue): \(outOfOrder) of \(runs) runs out of order (\(verdict))")
      }
    }
    if failures > 0 {
      print("hop-order: \(failures) cell(s) that must keep their order reordered on real threads")
      exit(1)
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
