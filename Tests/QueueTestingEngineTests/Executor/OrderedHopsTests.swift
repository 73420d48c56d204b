#if compiler(>=6.3)
  import AsyncQueue
  import Testing

  @testable import QueueTestingEngine
  import QueueWorkloads

  /// Hops out of a serial executor keep their order, as on real threads; hops out of the
  /// generic executor do not.
  ///
  /// Each cell of the table starts a few tasks in order on one executor (the departure), and each
  /// task hops to another (the arrival) and records its number there. A task leaving a serial
  /// executor (the main actor, a default actor, an actor on a custom executor) reaches its next
  /// executor before the one it leaves runs anything else (the runtime's `swift_task_switch`
  /// enqueues it there synchronously, or gives it the thread): those cells never reorder on real
  /// threads, in debug or release, and must pass every schedule of every strategy here. Tasks
  /// that start on the generic executor run beside each other on real threads and reach the
  /// actor in any order: those cells must be found out of order on an early schedule.
  /// `.ci/real-threads` runs the same table on real threads.
  @Suite("Hops out of a serial executor keep their order", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct OrderedHopsTests {
    /// Where the tasks start.
    enum Departure: String, CaseIterable, Sendable {
      /// `Task { @MainActor in … }`, one after another.
      case mainActor = "the main actor"
      /// `Task(on: queue) { … }` with an `ActorQueue` of the main actor: the shape of
      /// `Task(on: MainActor.queue)`, on a queue of the test's own (the process-wide one is shared
      /// with the tests that use it on real threads at the same time, in this process).
      case mainActorQueue = "an ActorQueue of the main actor"
      /// Tasks made in an actor method that use `self`: isolated to that (default) actor.
      case defaultActor = "a default actor"
      /// The same, on an actor whose executor is another (custom) serial executor.
      case customExecutor = "an actor on a custom executor"
      /// Tasks made in an actor method that do not use `self`: not isolated, they start on the
      /// generic executor (the twin that is a bug).
      case actorMethodUnisolated = "an actor method, not isolated (generic executor)"
      /// `Task.detached { … }`.
      case detached = "detached tasks (generic executor)"

      var keepsOrder: Bool {
        switch self {
        case .mainActor, .mainActorQueue, .defaultActor, .customExecutor: true
        case .actorMethodUnisolated, .detached: false
        }
      }
    }

    /// Where the tasks hop to.
    enum Arrival: String, CaseIterable, Sendable {
      /// A default actor nothing else uses.
      case idleActor = "an idle default actor"
      /// A default actor that another task keeps busy while the tasks arrive.
      case busyActor = "a busy default actor"
      /// The main actor.
      case mainActor = "the main actor"
      /// An actor whose executor is the main actor's (a custom executor).
      case customExecutor = "an actor on a custom executor"
    }

    struct Cell: Sendable, CustomTestStringConvertible {
      let departure: Departure
      let arrival: Arrival
      var testDescription: String { "\(departure.rawValue) -> \(arrival.rawValue)" }
    }

    /// Every cell with a hop in it: from the main actor (or an actor on its executor) to the main
    /// actor's executor is no hop.
    static let cells: [Cell] = Departure.allCases.flatMap { departure in
      Arrival.allCases.compactMap { arrival in
        let onMain: Set<Departure> = [.mainActor, .mainActorQueue, .customExecutor]
        let toMain: Set<Arrival> = [.mainActor, .customExecutor]
        return onMain.contains(departure) && toMain.contains(arrival)
          ? nil : Cell(departure: departure, arrival: arrival)
      }
    }

    static let taskCount = 3

    /// The body of a cell: its tasks record their numbers at the arrival, and the run is marked
    /// "in order" or "out of order".
    static func body(_ cell: Cell) -> @Sendable () async -> Void {
      {
        let target = HopTarget(cell.arrival)
        let busy = cell.arrival == .busyActor ? Task { await target.log.keepBusy() } : nil
        let tasks = await HopDeparture.start(cell.departure, count: taskCount, to: target)
        for task in tasks { await task.value }
        await busy?.value
        let order = await target.order()
        TraceRecorder.mark(order == Array(0..<taskCount) ? "in order" : "out of order")
      }
    }

    @available(ExecutorHooks 1.0, *)
    static func firstOutOfOrder(_ cell: Cell, _ series: ScheduleSeries) -> Int? {
      HopSchedulingTests.firstSchedule(leaving: "out of order", body(cell), series)
    }

    @available(ExecutorHooks 1.0, *)
    static func check(_ cell: Cell, _ found: Int?, _ strategy: String) {
      if cell.departure.keepsOrder {
        #expect(found == nil, "\(strategy): out of order on schedule \(found.map(String.init) ?? "")")
      } else {
        #expect(found != nil && found! <= 20, "\(strategy): first out of order \(found.map(String.init) ?? "none")")
      }
    }

    @Test(arguments: cells)
    @available(ExecutorHooks 1.0, *)
    func randomSchedules(_ cell: Cell) {
      Self.check(cell, Self.firstOutOfOrder(cell, .random(100, seed: 1)), "random")
    }

    @Test(arguments: cells)
    @available(ExecutorHooks 1.0, *)
    func pctSchedules(_ cell: Cell) {
      Self.check(cell, Self.firstOutOfOrder(cell, .pct(100, depth: 3, seed: 1)), "PCT")
    }

    /// Unbounded depth-first search for the cells that keep their order (1,000 schedules); a
    /// delay-bounded one for the others, whose reordering needs an early choice that depth-first
    /// search reaches late.
    @Test(arguments: cells)
    @available(ExecutorHooks 1.0, *)
    func exhaustiveSchedules(_ cell: Cell) {
      let search = ExhaustiveSearch(delayBound: cell.departure.keepsOrder ? nil : 2, budget: 1_000)
      let exploration = ControlledExecutor.explore(search, Self.body(cell)) {
        HopSchedulingTests.leavesMark($0, "out of order")
      }
      let explored = exploration.search.schedulesExplored
      let found = exploration.stoppedAt != nil
      if cell.departure.keepsOrder {
        #expect(!found, "out of order on schedule \(explored)")
        #expect(explored > 1, "the search offered no choice at all")
      } else {
        #expect(found, "\(explored) schedules, exhausted: \(exploration.search.isExhausted)")
        #expect(explored <= 50, "first out of order on schedule \(explored)")
      }
      #expect(exploration.search.inlineHopTasks.isEmpty)
    }

    /// The case the deferred arrival exists for stays offered: a task made on the generic
    /// executor just before its creator hops onto an idle actor can get there first (on real
    /// threads too), while tasks that leave the main actor in turn never overtake each other.
    @Test
    @available(ExecutorHooks 1.0, *)
    func aTaskMadeJustBeforeItsCreatorsHopStillRacesIt() {
      #expect(HopSchedulingTests.ordersExplored().orders == ["xy", "yx"])
    }
  }

  /// Starts the tasks of a departure, in order.
  enum HopDeparture {
    // Each task calls `record` itself: passing it a closure to call would add a hop to the
    // generic executor (a nonisolated async closure runs there), which reorders on real threads.
    static func start(
      _ departure: OrderedHopsTests.Departure, count: Int, to target: HopTarget
    ) async -> [Task<Void, Never>] {
      switch departure {
      case .mainActor:
        return (0..<count).map { number in Task { @MainActor in await target.record(number) } }
      case .mainActorQueue:
        let queue = ActorQueue<MainActor>()
        queue.adoptExecutionContext(of: MainActor.shared)
        return (0..<count).map { number in Task(on: queue) { await target.record(number) } }
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
    let arrival: OrderedHopsTests.Arrival
    let log = HopOrderLog()
    let mainBacked = MainExecutorHopLog()

    init(_ arrival: OrderedHopsTests.Arrival) { self.arrival = arrival }

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
      case .mainActor: return await MainActor.run { MainHopOrder.take() }
      case .customExecutor: return await mainBacked.numbers
      }
    }
  }

  actor HopOrderLog {
    private(set) var numbers: [Int] = []
    func record(_ number: Int) { numbers.append(number) }

    /// Holds the actor for a moment, so that tasks arriving meanwhile queue behind it.
    func keepBusy() {
      var spin = 0
      for step in 0..<10_000 { spin &+= step }
      numbers.reserveCapacity(numbers.count + (spin == -1 ? 1 : 0))
    }
  }

  actor MainExecutorHopLog {
    nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
    private(set) var numbers: [Int] = []
    func record(_ number: Int) { numbers.append(number) }
  }

  /// The numbers recorded on the main actor by the current run (runs are one at a time).
  @MainActor enum MainHopOrder {
    private static var numbers: [Int] = []
    static func append(_ number: Int) { numbers.append(number) }
    static func take() -> [Int] {
      defer { numbers = [] }
      return numbers
    }
  }
#endif
