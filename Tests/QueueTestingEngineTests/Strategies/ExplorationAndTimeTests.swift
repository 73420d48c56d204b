#if compiler(>=6.3)
  import AsyncQueue
  import QueueWorkloads
  import Testing

  @testable import QueueTestingEngine

  @Suite("Exhaustive search, virtual time and trace views", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct ExplorationAndTimeTests {
    /// Two tasks that each yield once, awaited by the root: a small space with several orders.
    static let twoYielders: @Sendable () async -> Void = {
      let first = Task {
        TraceRecorder.mark("a1")
        await Task.yield()
        TraceRecorder.mark("a2")
      }
      let second = Task {
        TraceRecorder.mark("b1")
        await Task.yield()
        TraceRecorder.mark("b2")
      }
      await first.value
      await second.value
    }

    static func marks(_ trace: Trace) -> String {
      trace.events.compactMap { if case .mark(let label) = $0.kind { label } else { nil } }.joined(separator: " ")
    }

    @available(ExecutorHooks 1.0, *)
    @Test func unboundedSearchExhaustsTheSpaceAndCoversEveryRandomSchedule() {
      var hashes: [UInt64] = []
      var orders = Set<String>()
      let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil), Self.twoYielders) { result in
        hashes.append(result.trace.hash)
        orders.insert(Self.marks(result.trace))
        return false
      }
      #expect(exploration.search.isExhausted)
      #expect(exploration.search.schedulesExplored == hashes.count)
      // Schedules may repeat a trace: on 6.3 `Task.yield()` first runs a job of no task that
      // then enqueues the task, and ordering two such jobs differently can lead to the same run.
      // Each schedule is still a different list of choices.
      #expect(Set(hashes).count > 6)
      // Every interleaving of a1 < a2 and b1 < b2 is reachable: 4!/(2!·2!) = 6.
      #expect(orders.count == 6)
      for seed in UInt64(0)..<200 {
        let result = ControlledExecutor.runBlocking(seed: seed, Self.twoYielders)
        #expect(hashes.contains(result.trace.hash), "seed \(seed) reached a schedule the search missed")
      }
    }

    @available(ExecutorHooks 1.0, *)
    @Test func delayBoundLimitsTheSearch() {
      let none = ControlledExecutor.explore(ExhaustiveSearch(delayBound: 0), Self.twoYielders)
      #expect(none.search.schedulesExplored == 1)
      #expect(none.search.isExhausted)
      let one = ControlledExecutor.explore(ExhaustiveSearch(delayBound: 1), Self.twoYielders)
      let all = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil), Self.twoYielders)
      #expect(one.search.isExhausted)
      #expect(1 < one.search.schedulesExplored)
      #expect(one.search.schedulesExplored < all.search.schedulesExplored)
    }

    @available(ExecutorHooks 1.0, *)
    @Test func budgetStopsTheSearchWithoutClaimingExhaustion() {
      let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil, budget: 2), Self.twoYielders)
      #expect(exploration.search.schedulesExplored == 2)
      #expect(!exploration.search.isExhausted)
    }

    /// The task-per-call counterexample on 5 calls: each checks the count it sees; the number out of
    /// order is marked in the trace.
    static let taskPerCall: @Sendable () async -> Void = {
      let counter = CountingActor()
      for index in 1...5 {
        Task { await counter.incrementAndCheck(index) }
      }
      while await counter.count < 5 { await Task.yield() }
      let outOfOrder = await counter.outOfOrder
      TraceRecorder.mark("outOfOrder=\(outOfOrder)")
    }

    /// The task-per-call counterexample (a `Task {}` per call into an actor) is found by the search,
    /// and the first failing schedule replays.
    @available(ExecutorHooks 1.0, *)
    @Test func searchFindsTheTaskPerCallReordering() {
      let exploration = ControlledExecutor.explore(
        ExhaustiveSearch(delayBound: 1), Self.taskPerCall,
        stopWhen: { result in !Self.marks(result.trace).hasSuffix("outOfOrder=0") })
      let failing = exploration.stoppedAt
      #expect(failing != nil)
      #expect(exploration.search.schedulesExplored <= 10)
      if let failing {
        let replay = ControlledExecutor.runBlocking(strategy: ReplayStrategy(failing.schedule), Self.taskPerCall)
        #expect(replay.trace.hash == failing.trace.hash)
      }
    }

    /// Timers due at the same virtual instant become runnable together and the strategy orders
    /// them: across seeds both orders occur, and each replays.
    @available(ExecutorHooks 1.0, *)
    @Test func timersDueTogetherAreOrderedByTheStrategy() {
      let body: @Sendable () async -> Void = {
        await withTaskGroup(of: Void.self) { group in
          for name in ["x", "y"] {
            group.addTask {
              try? await Task.sleep(for: .seconds(1))
              TraceRecorder.mark(name)
            }
          }
        }
      }
      var orders = Set<String>()
      for seed in UInt64(0)..<40 {
        let result = ControlledExecutor.runBlocking(seed: seed, body)
        #expect(result.virtualTime == 1_000_000_000)
        let order = Self.marks(result.trace)
        orders.insert(order)
        let replay = ControlledExecutor.runBlocking(strategy: ReplayStrategy(result.schedule), body)
        #expect(Self.marks(replay.trace) == order)
      }
      #expect(orders == ["x y", "y x"])
    }

    /// A sleep's delay is measured when it reaches the harness, and a stall of the measuring
    /// thread shortens it (under load, 5 ms was seen). The schedule carries each timer's delay,
    /// so a replay whose measurements come out 5 ms short for one task still orders two timers
    /// due together as its run did. Measured again instead, that task's timer would always fire
    /// first.
    /// The stall of the sleeping task's measurement, in nanoseconds, for the test below.
    @TaskLocal static var measurementStall: UInt64 = 0

    @available(ExecutorHooks 1.0, *)
    @Test func aReplayTakesItsRunsTimerDelaysWhateverItMeasures() throws {
      let stallsX = Box(false)
      let body: @Sendable () async -> Void = {
        await withTaskGroup(of: Void.self) { group in
          for name in ["x", "y"] {
            group.addTask {
              let stall: UInt64 = name == "x" && stallsX.current ? 5_000_000 : 0
              await Self.$measurementStall.withValue(stall) {
                try? await Task.sleep(for: .seconds(1))
              }
              TraceRecorder.mark(name)
            }
          }
        }
      }
      var orders = Set<String>()
      for seed in UInt64(0)..<20 {
        stallsX.update { $0 = false }
        let result = ControlledExecutor.runBlocking(seed: seed, outsideWorkTimeout: .zero, body)
        #expect(result.timerDelays == [1000, 1000])
        #expect(result.schedule.description.hasSuffix("+t1000.1000"))
        orders.insert(Self.marks(result.trace))
        stallsX.update { $0 = true }
        let replay = ControlledExecutor.runBlocking(
          strategy: ReplayStrategy(try Schedule(parsing: result.schedule.description)), outsideWorkTimeout: .zero,
          model: .faithful, measurementStall: { Self.measurementStall }, body)
        #expect(Self.marks(replay.trace) == Self.marks(result.trace), "seed \(seed)")
        #expect(replay.trace.hash == result.trace.hash, "seed \(seed)")
      }
      #expect(orders == ["x y", "y x"], "both orders were run, so the replays had something to keep")
    }

    /// `VirtualClock.now` follows the run's virtual time, and sleeping on it is virtual.
    @available(ExecutorHooks 1.0, *)
    @Test func virtualClockReadsVirtualTime() {
      let readings = Box<[Duration]>([])
      let result = ControlledExecutor.runBlocking(seed: 1) {
        let clock = VirtualClock()
        let start = clock.now
        readings.update { $0.append(start.offset) }
        try? await Task.sleep(for: .seconds(90))
        readings.update { $0.append(clock.now.offset) }
        try? await clock.sleep(until: clock.now.advanced(by: .seconds(3600)))
        readings.update { $0.append(start.duration(to: clock.now)) }
      }
      #expect(result.outcome == .completed)
      #expect(readings.current == [.zero, .seconds(90), .seconds(3690)])
      #expect(VirtualClock().now.offset == .zero)
    }

    /// The column view has one column per task and puts each event under its task.
    @available(ExecutorHooks 1.0, *)
    @Test func columnViewPutsEventsUnderTheirTasks() {
      let result = ControlledExecutor.runBlocking(seed: 5) {
        let queue = FIFOQueue(name: "jobs")
        await Task(name: "worker") {
          queue.enqueue { TraceRecorder.mark("inside") }
          await queue.enqueueAndWait {}
        }.value
      }
      let view = result.trace.columnView()
      let lines = view.split(separator: "\n").map(String.init)
      #expect(lines[0].hasPrefix("step │ t1 (root)"))
      #expect(lines[0].contains("t2 'worker'"))
      let enqueueLine = lines.first { $0.contains("enqueue jobs#1") }
      // The worker's column is the second one: its cell comes after the root's (empty) cell.
      #expect(enqueueLine?.components(separatedBy: " │ ").count == 3)
      #expect(enqueueLine?.components(separatedBy: " │ ")[1].trimmingCharacters(in: .whitespaces) == "")
      #expect(view.contains("inside"))
      #expect(lines.count == result.trace.events.count + 1)
    }

    /// Actor-queue and main-actor-queue items appear in the trace with their kind.
    @available(ExecutorHooks 1.0, *)
    @Test func actorQueueItemsAreTraced() {
      let result = ControlledExecutor.runBlocking(seed: 2) {
        let journal = Journal()
        journal.record("a")
        await journal.flush()
        // A queue of its own on the main actor: `MainActor.queue` is shared with suites running
        // in parallel, whose items could hold its turn from outside the run.
        let mainQueue = ActorQueue<MainActor>()
        mainQueue.adoptExecutionContext(of: MainActor.shared)
        await mainQueue.enqueueAndWait { _ in }
      }
      let items = result.trace.events.compactMap { event -> QueueItem? in
        if case .started(let item) = event.kind { item } else { nil }
      }
      #expect(items.map(\.kind) == [.actor, .actor, .main])
      #expect(items.map(\.number) == [1, 2, 1])
    }
  }

  actor Journal {
    private let queue = ActorQueue<Journal>()
    private var lines: [String] = []

    init() { queue.adoptExecutionContext(of: self) }

    nonisolated func record(_ line: String) {
      queue.enqueue { journal in journal.lines.append(line) }
    }

    func flush() async { await queue.enqueueAndWait { _ in } }
  }
#endif
