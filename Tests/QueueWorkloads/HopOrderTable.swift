import AsyncQueue

// The hop table: tasks started in order on one executor (the departure), each hopping straight
// to another (the arrival) and recording its number there. The same code runs under the harness
// (QueueTestingEngineTests' "Hops out of a serial executor keep their order") and on real
// threads (`.ci/real-threads`, which compiles this very file), so the claim the harness makes
// of each cell is checked against what real threads do with it.

/// Where the tasks of a cell start.
public enum HopDeparture: String, CaseIterable, Sendable {
  /// `Task { @MainActor in … }`, one after another.
  case mainActor = "the main actor"
  /// `Task(on: queue) { … }` with an `ActorQueue` of the main actor (`MainActor.queue` is one).
  case mainActorQueue = "MainActor.queue"
  /// Tasks made in an actor method that use `self`: isolated to that (default) actor.
  case defaultActor = "a default actor"
  /// The same, on an actor whose executor is another (custom) serial executor.
  case customExecutor = "an actor on a custom executor"
  /// Tasks made in an actor method that do not use `self`: not isolated, they start on the
  /// generic executor (the twin that is a bug).
  case actorMethodUnisolated = "an actor method, not isolated (generic executor)"
  /// `Task.detached { … }`.
  case detached = "detached tasks (generic executor)"

  /// Whether the tasks leave a serial executor, and so reach the arrival in the order they
  /// started, on every run on real threads.
  public var keepsOrder: Bool {
    switch self {
    case .mainActor, .mainActorQueue, .defaultActor, .customExecutor: true
    case .actorMethodUnisolated, .detached: false
    }
  }
}

/// Where the tasks of a cell hop to.
public enum HopArrival: String, CaseIterable, Sendable {
  /// A default actor nothing else uses.
  case idleActor = "an idle default actor"
  /// A default actor that another task keeps busy while the tasks arrive.
  case busyActor = "a busy default actor"
  /// The main actor.
  case mainActor = "the main actor"
  /// An actor whose executor is the main actor's (a custom executor).
  case customExecutor = "an actor on a custom executor"
}

/// One cell of the table.
public struct HopCell: Sendable, CustomStringConvertible {
  /// Where the cell's tasks start.
  public let departure: HopDeparture
  /// Where they hop to.
  public let arrival: HopArrival

  /// "departure -> arrival".
  public var description: String { "\(departure.rawValue) -> \(arrival.rawValue)" }

  /// Every cell with a hop in it: from the main actor (or an actor on its executor) to the main
  /// actor's executor is no hop.
  public static let all: [HopCell] = HopDeparture.allCases.flatMap { departure in
    HopArrival.allCases.compactMap { arrival in
      let onMain: Set<HopDeparture> = [.mainActor, .mainActorQueue, .customExecutor]
      let toMain: Set<HopArrival> = [.mainActor, .customExecutor]
      return onMain.contains(departure) && toMain.contains(arrival)
        ? nil : HopCell(departure: departure, arrival: arrival)
    }
  }

  /// Runs the cell once from the calling task: `count` tasks, the arrival kept busy for
  /// `busySpins` iterations where it is the busy actor, `mainQueue` for the `ActorQueue`
  /// departure. Whether the numbers arrived in order.
  public func arrivesInOrder(count: Int, busySpins: Int, mainQueue: ActorQueue<MainActor>) async -> Bool {
    let target = HopTarget(arrival)
    let busy = arrival == .busyActor ? Task { await target.log.keepBusy(spins: busySpins) } : nil
    let tasks = await departure.start(count: count, to: target, mainQueue: mainQueue)
    for task in tasks { await task.value }
    await busy?.value
    return await target.order() == Array(0..<count)
  }
}

extension HopDeparture {
  // Each task calls `record` itself: handing it a closure to call would add a hop to the generic
  // executor (a nonisolated async closure runs there), which reorders on real threads.
  func start(count: Int, to target: HopTarget, mainQueue: ActorQueue<MainActor>) async -> [Task<Void, Never>] {
    switch self {
    case .mainActor:
      return (0..<count).map { number in Task { @MainActor in await target.record(number) } }
    case .mainActorQueue:
      return (0..<count).map { number in Task(on: mainQueue) { await target.record(number) } }
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
}

actor DepartureActor {
  private var started = 0

  /// Tasks made here; with `isolated`, each uses `self` first and so is isolated to this actor.
  func start(count: Int, isolated: Bool, to target: HopTarget) -> [Task<Void, Never>] {
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

/// An actor on the main actor's executor: a serial executor of its own kind, not a default actor.
actor MainExecutorDepartureActor {
  nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
  private var started = 0

  func start(count: Int, to target: HopTarget) -> [Task<Void, Never>] {
    (0..<count).map { number in
      Task {
        self.started += 1
        await target.record(number)
      }
    }
  }
}

/// The arrival of a cell: where `record` runs.
struct HopTarget: Sendable {
  let arrival: HopArrival
  let log = HopOrderLog()
  let mainBacked = MainExecutorHopLog()

  init(_ arrival: HopArrival) { self.arrival = arrival }

  /// Runs on the caller's isolation (no hop to the generic executor on the way), then hops
  /// straight to the arrival.
  func record(_ number: Int, isolation: isolated (any Actor)? = #isolation) async {
    switch arrival {
    case .idleActor, .busyActor: await log.record(number)
    case .mainActor: await MainHopOrder.append(number)
    case .customExecutor: await mainBacked.record(number)
    }
  }

  func order() async -> [Int] {
    switch arrival {
    case .idleActor, .busyActor: return await log.numbers
    case .mainActor: return await MainHopOrder.take()
    case .customExecutor: return await mainBacked.numbers
    }
  }
}

actor HopOrderLog {
  private(set) var numbers: [Int] = []
  func record(_ number: Int) { numbers.append(number) }

  /// Holds the actor for a moment, so that tasks arriving meanwhile queue behind it.
  func keepBusy(spins: Int) {
    var spin = 0
    for step in 0..<spins { spin &+= step }
    if spin == -1 { numbers.append(-1) }
  }
}

actor MainExecutorHopLog {
  nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
  private(set) var numbers: [Int] = []
  func record(_ number: Int) { numbers.append(number) }
}

/// The numbers recorded on the main actor by the cell running now (one at a time).
@MainActor enum MainHopOrder {
  private static var numbers: [Int] = []
  static func append(_ number: Int) { numbers.append(number) }
  static func take() -> [Int] {
    defer { numbers = [] }
    return numbers
  }
}
