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
    typealias Cell = HopCell

    static let cells = HopCell.all
    static let taskCount = 3

    /// The `ActorQueue` departure's queue: one of the test's own (the process-wide
    /// `MainActor.queue` is shared with the tests that use it on real threads at the same time,
    /// in this process).
    static let mainQueue: ActorQueue<MainActor> = {
      let queue = ActorQueue<MainActor>()
      queue.adoptExecutionContext(of: MainActor.shared)
      return queue
    }()

    /// The body of a cell: the run is marked "in order" or "out of order".
    static func body(_ cell: Cell) -> @Sendable () async -> Void {
      {
        let inOrder = await cell.arrivesInOrder(count: taskCount, busySpins: 10_000, mainQueue: mainQueue)
        TraceRecorder.mark(inOrder ? "in order" : "out of order")
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
#endif
