#if compiler(>=6.3)
  import AsyncQueue
  import Foundation
  import Synchronization
  import Testing

  @_spi(Strategies) @testable import QueueTestingEngine
  import QueueWorkloads

  /// Every actor hop is a scheduling point: for each kind of hop, a body whose bad outcome only
  /// the interleaving at that hop produces, found by random, PCT and exhaustive search. Run with
  /// the runtime's inline fast path forced back on (`HopPolicy.runtimeFastPath`), the same
  /// bodies pass every schedule: the tests below fail if hops stop being choices.
  @Suite("Every actor hop is a scheduling point", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct HopSchedulingTests {
    /// A body and the mark that only a bad interleaving leaves.
    struct Probe: Sendable, CustomTestStringConvertible {
      let name: String
      let bad: String
      let body: @Sendable () async -> Void
      var testDescription: String { name }
    }

    static let probes: [Probe] = [
      Probe(name: "actor -> idle actor (lost update)", bad: "balance=90") {
        let account = HopAccount()
        async let first: Void = account.withdrawAuditing(10)
        async let second: Void = account.withdrawAuditing(10)
        _ = await (first, second)
        TraceRecorder.mark("balance=\(await account.balance)")
      },
      Probe(name: "actor -> nonisolated code (lost update)", bad: "balance=90") {
        let account = HopAccount()
        async let first: Void = account.withdrawThroughHelper(10)
        async let second: Void = account.withdrawThroughHelper(10)
        _ = await (first, second)
        TraceRecorder.mark("balance=\(await account.balance)")
      },
      Probe(name: "actor -> nonisolated -> other actor (order inversion)", bad: "inverted") {
        let first = HopVisits()
        let second = HopVisits()
        async let one: Void = visitBoth("1", first, second)
        async let two: Void = visitBoth("2", first, second)
        _ = await (one, two)
        TraceRecorder.mark(await first.log == second.log ? "same" : "inverted")
      },
      Probe(name: "nonisolated -> idle actor (work between)", bad: "seen: a b") {
        let order = LockedOrder()
        let visits = HopVisits()
        async let one: Void = appendThenSnapshot("a", order, visits)
        async let two: Void = { order.append("b") }()
        _ = await (one, two)
        TraceRecorder.mark("seen: \(await visits.log.joined(separator: " "))")
      },
      Probe(name: "actor -> main actor and back (lost update)", bad: "balance=90") {
        let account = HopAccount()
        async let first: Void = account.withdrawThroughMainActor(10)
        async let second: Void = account.withdrawThroughMainActor(10)
        _ = await (first, second)
        TraceRecorder.mark("balance=\(await account.balance)")
      },
      Probe(name: "actor on a custom executor -> idle actor (lost update)", bad: "count=1") {
        let counter = MainExecutorCounter()
        async let first: Void = counter.incrementAuditing()
        async let second: Void = counter.incrementAuditing()
        _ = await (first, second)
        TraceRecorder.mark("count=\(await counter.count)")
      },
      Probe(name: "unstructured task preferring the harness executor (order inversion)", bad: "inverted") {
        let first = HopVisits()
        let second = HopVisits()
        // The probes are a stored property; its closures check what the tests that run them state.
        guard #available(ExecutorHooks 1.0, *) else { return }
        let one = Task(executorPreference: ControlledExecutor.taskExecutor) { await visitBoth("1", first, second) }
        let two = Task(executorPreference: ControlledExecutor.taskExecutor) { await visitBoth("2", first, second) }
        await one.value
        await two.value
        TraceRecorder.mark(await first.log == second.log ? "same" : "inverted")
      },
    ]

    /// Probes whose hop the runtime's fast path made inline (the mutation check applies). Hops
    /// onto or off the main actor (and an actor on its executor) were choices before too, and a
    /// task created with a task-executor preference never took the fast path.
    static let inlineBefore: Set<String> = [
      "actor -> idle actor (lost update)", "actor -> nonisolated code (lost update)",
      "actor -> nonisolated -> other actor (order inversion)", "nonisolated -> idle actor (work between)",
    ]

    static func leavesMark(_ result: RunResult, _ mark: String) -> Bool {
      result.trace.events.contains { if case .mark(mark) = $0.kind { true } else { false } }
    }

    /// The number of the first schedule of `series` whose run leaves `probe.bad`, if any.
    @available(ExecutorHooks 1.0, *)
    static func firstBadSchedule(_ probe: Probe, _ series: ScheduleSeries) -> Int? {
      var number = 0
      var found: Int?
      series.runSchedules { strategy in
        number += 1
        let result = ControlledExecutor.runBlocking(strategy: strategy, probe.body)
        #expect(result.outcome == .completed, "\(probe.name): schedule \(number) did not complete")
        #expect(result.everyHopWasAChoice, "\(probe.name): tasks \(result.inlineHopTasks) hopped inline")
        if leavesMark(result, probe.bad) { found = number }
        return (result, found == nil)
      }
      return found
    }

    @Test(arguments: probes)
    @available(ExecutorHooks 1.0, *)
    func randomSearchReachesTheInterleaving(_ probe: Probe) {
      let found = Self.firstBadSchedule(probe, .random(100, seed: 1))
      #expect(found != nil && found! <= 20, "\(probe.name): first bad schedule \(found.map(String.init) ?? "none")")
    }

    @Test(arguments: probes)
    @available(ExecutorHooks 1.0, *)
    func pctSearchReachesTheInterleaving(_ probe: Probe) {
      let found = Self.firstBadSchedule(probe, .pct(100, depth: 2, seed: 1))
      #expect(found != nil && found! <= 20, "\(probe.name): first bad schedule \(found.map(String.init) ?? "none")")
    }

    @Test(arguments: probes)
    @available(ExecutorHooks 1.0, *)
    func exhaustiveSearchReachesTheInterleaving(_ probe: Probe) {
      let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil, budget: 5_000), probe.body) {
        Self.leavesMark($0, probe.bad)
      }
      #expect(exploration.stoppedAt != nil, "\(probe.name): \(exploration.search.schedulesExplored) schedules")
    }

    /// The mutation check: with the runtime's fast path back, the bad interleaving is never
    /// reached, yet the search would have called the space exhausted.
    @Test(arguments: probes.filter { inlineBefore.contains($0.name) })
    @available(ExecutorHooks 1.0, *)
    func withInlineHopsTheInterleavingIsMissed(_ probe: Probe) {
      var search = ExhaustiveSearch(delayBound: nil, budget: 5_000)
      var reached = false
      while let strategy = search.nextStrategy() {
        let result = ControlledExecutor.runBlocking(
          strategy: strategy, model: .faithful { $0.hops = .runtimeFastPath }, probe.body)
        search.record(result)
        reached = reached || Self.leavesMark(result, probe.bad)
      }
      #expect(!reached)
      #expect(search.ranEverySchedule)
    }

    /// Two plain `Task {}`s visiting two actors in turn, with a nonisolated helper between.
    static let unstructuredVisits: @Sendable () async -> Void = {
      let first = HopVisits()
      let second = HopVisits()
      let one = Task(name: "one") { () async -> Void in await visitBoth("1", first, second) }
      let two = Task(name: "two") { () async -> Void in await visitBoth("2", first, second) }
      await one.value
      await two.value
      TraceRecorder.mark(await first.log == second.log ? "same" : "inverted")
    }

    /// A `Task {}` made inside a run gets the harness's task-executor preference (it inherits
    /// none), so its hops off an actor are choices like a structured child's: the order
    /// inversion between two plain tasks is found, and the search that runs out of schedules
    /// may call the space exhausted.
    @available(ExecutorHooks 1.0, *)
    @Test func unstructuredTasksHopAsChoices() throws {
      try #require(Self.interposeProbe(), "a task made in a run prefers the harness's executor")
      let found = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil, budget: 5_000), Self.unstructuredVisits)
      {
        Self.leavesMark($0, "inverted")
      }
      #expect(found.stoppedAt != nil, "\(found.search.schedulesExplored) schedules")
      let all = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil, budget: 5_000), Self.unstructuredVisits)
      #expect(all.search.ranEverySchedule)
      #expect(all.search.isExhausted)
      #expect(all.search.inlineHopTasks.isEmpty)
    }

    /// The mutation check: without that preference the runtime continues such a task inline as
    /// it leaves an actor; the run says so, and the search does not claim the space exhausted.
    /// With tasks joining an actor's queue at the hop too (no deferred arrivals), the inversion
    /// is never reached.
    @available(ExecutorHooks 1.0, *)
    @Test func withoutThePreferenceUnstructuredTasksAreReported() {
      let reported = ControlledExecutor.explore(
        ExhaustiveSearch(delayBound: nil, budget: 5_000), model: .faithful { $0.newTasksPreferHarness = false },
        Self.unstructuredVisits)
      #expect(!reported.search.isExhausted)
      #expect(reported.search.inlineHopTasks == ["task 2", "task 3"])
      Self.exploreWithoutPreferenceOrDeferredArrivals()
    }

    @available(ExecutorHooks 1.0, *)
    static func exploreWithoutPreferenceOrDeferredArrivals() {
      let exploration = ControlledExecutor.explore(
        ExhaustiveSearch(delayBound: nil, budget: 5_000),
        model: .faithful {
          $0.newTasksPreferHarness = false
          $0.hops = .arrivalsAtTheHop
        },
        Self.unstructuredVisits
      ) { Self.leavesMark($0, "inverted") }
      #expect(exploration.stoppedAt == nil)
      #expect(exploration.search.ranEverySchedule)
      #expect(!exploration.search.isExhausted)
      #expect(exploration.search.inlineHopTasks == ["task 2", "task 3"])
    }

    /// A task made just before its creator hops onto an actor can reach the actor first: on real
    /// threads it runs beside its creator, and `Task { await log.append("x") };
    /// await log.append("y")` leaves "xy" now and then (27 times in 5,000 runs here). The
    /// creator's hop arrives at the actor as a job of its own, so the search offers both orders.
    static let racesToTheActor: @Sendable () async -> Void = {
      let log = ArrivalLog()
      let other = Task { await log.append("x") }
      await log.append("y")
      await other.value
      TraceRecorder.mark(await log.entries.joined())
    }

    @available(ExecutorHooks 1.0, *)
    static func ordersExplored(model: RuntimeModel = .faithful) -> (orders: Set<String>, exhausted: Bool) {
      let orders = Mutex<Set<String>>([])
      let exploration = ControlledExecutor.explore(
        ExhaustiveSearch(delayBound: nil, budget: 5_000), model: model, Self.racesToTheActor
      ) { result in
        for event in result.trace.events {
          if case .mark(let text) = event.kind { orders.withLock { _ = $0.insert(text) } }
        }
        return false
      }
      return (orders.withLock { $0 }, exploration.search.isExhausted)
    }

    @available(ExecutorHooks 1.0, *)
    @Test func aTaskMadeBeforeAHopCanReachTheActorFirst() {
      let explored = Self.ordersExplored()
      #expect(explored.orders == ["xy", "yx"])
      #expect(explored.exhausted)
    }

    /// The mutation check: with tasks joining an actor's queue at the hop, inside the job that
    /// hops, the creator always queues first and "xy" is never offered.
    @available(ExecutorHooks 1.0, *)
    @Test func withArrivalsAtTheHopTheOtherOrderIsNeverOffered() {
      let explored = Self.ordersExplored(model: .faithful { $0.hops = .arrivalsAtTheHop })
      #expect(explored.orders == ["yx"])
    }

    /// A check-then-act across two calls of an actor with nonisolated work between, made by
    /// plain `Task {}`s after a first visit to another actor (as SCTBench's classic programs
    /// read when ported with their shared state in actors): both tasks can pass the check
    /// before either acts, and random and PCT find it. Without the preference, once a task was
    /// on the first actor it went on inline (each later hop found the next actor idle), its
    /// check and act ran in one stretch, and no schedule overdrew the stock.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: [false, true])
    func checkThenActByPlainTasksIsFound(preference: Bool) {
      let body: @Sendable () async -> Void = {
        let stock = Stock()
        let door = HopVisits()
        let buyers = (0..<2).map { buyer in
          Task {
            await door.visit("\(buyer)")
            let left = await stock.available()
            if worthBuying(left) { await stock.take() }
          }
        }
        for buyer in buyers { await buyer.value }
        TraceRecorder.mark("stock=\(await stock.count)")
      }
      // The mutant: no preference, and tasks join an actor's queue at the hop itself (with
      // deferred arrivals alone, the arrival at the second actor is a choice, and that finds it).
      Self.findOverdraw(body, preference: preference)
    }

    @available(ExecutorHooks 1.0, *)
    static func findOverdraw(_ body: @escaping @Sendable () async -> Void, preference: Bool) {
      for series in [ScheduleSeries.random(100, seed: 1), .pct(100, depth: 2, seed: 1)] {
        let model =
          preference
          ? RuntimeModel.faithful
          : .faithful {
            $0.newTasksPreferHarness = false
            $0.hops = .arrivalsAtTheHop
          }
        let found = Self.firstSchedule(leaving: "stock=-1", body, series, model: model)
        if preference {
          #expect(found != nil && found! <= 20, "first overdraw: \(found.map(String.init) ?? "none")")
        } else {
          #expect(found == nil)
        }
      }
    }

    /// The number of the first schedule of `series` whose run leaves `mark`, if any.
    @available(ExecutorHooks 1.0, *)
    static func firstSchedule(
      leaving mark: String, _ body: @escaping @Sendable () async -> Void, _ series: ScheduleSeries,
      model: RuntimeModel = .faithful
    ) -> Int? {
      var number = 0
      var found: Int?
      series.runSchedules { strategy in
        number += 1
        let result = ControlledExecutor.runBlocking(strategy: strategy, model: model, body)
        if leavesMark(result, mark) { found = number }
        return (result, found == nil)
      }
      return found
    }

    /// Whether tasks made in a run get the preference in this process: makes one and looks.
    static func interposeProbe() -> Bool {
      guard #available(ExecutorHooks 1.0, *) else { return false }
      let result = ControlledExecutor.runBlocking(seed: 1) {
        await Task { () async -> Void in TraceRecorder.mark("preference: \(currentTaskHasPreference())") }.value
      }
      return leavesMark(result, "preference: true")
    }

    /// Tasks created inside an actor method, isolated to that actor, start from the actor's own
    /// queue. With the preference they leave the actor through a choice like any task: the lost
    /// update between them is found, and the fixed twin's space is exhausted.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: [false, true])
    func tasksCreatedInsideAnActorMethodHopAsChoices(fixed: Bool) {
      let exploration = Self.exploreSpawnedIncrements(fixed: fixed)
      #expect((exploration.stoppedAt != nil) == !fixed, "the lost update is found in the buggy version only")
      #expect(exploration.search.inlineHopTasks.isEmpty)
      #expect(exploration.search.isExhausted == fixed)
    }

    /// Without the preference, the harness never holds a job of those tasks, and they leave the
    /// actor for another idle actor inline: the run lists them and, for the fixed twin, the
    /// search does not claim the space exhausted. (An optimized build may run one of them without
    /// its enqueuing anything: that one is never seen, as the docs say.)
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: [false, true])
    func withoutThePreferenceTasksCreatedInsideAnActorMethodAreReported(fixed: Bool) {
      let exploration = Self.exploreSpawnedIncrements(
        fixed: fixed, model: .faithful { $0.newTasksPreferHarness = false })
      #expect((exploration.stoppedAt != nil) == !fixed, "the lost update is found in the buggy version only")
      #expect(!exploration.search.inlineHopTasks.isEmpty)
      #expect(Set(exploration.search.inlineHopTasks).isSubset(of: ["task 2", "task 3"]))
      #expect(!exploration.search.isExhausted)
    }

    @available(ExecutorHooks 1.0, *)
    static func exploreSpawnedIncrements(
      fixed: Bool, model: RuntimeModel = .faithful
    ) -> ControlledExecutor.Exploration {
      ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil, budget: 500), model: model) {
        let spawner = SpawningCounter()
        for task in await spawner.spawnIncrements(fixed: fixed) { await task.value }
        TraceRecorder.mark("count=\(await spawner.count)")
      } stopWhen: {
        Self.leavesMark($0, "count=1")
      }
    }

    /// The lost update across a synchronous method of another actor, under unbounded exhaustive
    /// search, with unstructured tasks as users write it: found.
    @available(ExecutorHooks 1.0, *)
    @Test func lostUpdateWithUnstructuredTasksIsFoundByExhaustiveSearch() {
      let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil)) {
        let account = HopAccount()
        let first = Task { await account.withdrawAuditing(10) }
        let second = Task { await account.withdrawAuditing(10) }
        await first.value
        await second.value
        TraceRecorder.mark("balance=\(await account.balance)")
      } stopWhen: {
        Self.leavesMark($0, "balance=90")
      }
      #expect(exploration.stoppedAt != nil)
    }

    /// The queues' own tasks (drainers, `Task(on:)`, SingleFlight's operation) prefer the
    /// harness's executor under a run, so their hops are choices; outside a run they prefer none.
    @available(ExecutorHooks 1.0, *)
    @Test func queueTasksPreferTheHarnessExecutorOnlyUnderARun() async {
      let queue = FIFOQueue()
      let outside = await Task(on: queue) { currentTaskHasPreference() }.value
      #expect(!outside)
      let visits = QueuedVisits()
      let outsideItem = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
        visits.queue.enqueue { _ in done.resume(returning: currentTaskHasPreference()) }
      }
      #expect(!outsideItem)
      let result = ControlledExecutor.runBlocking(seed: 1) {
        let queue = FIFOQueue()
        queue.enqueue { TraceRecorder.mark("drainer: \(currentTaskHasPreference())") }
        let onQueue = await Task(on: queue) { currentTaskHasPreference() }.value
        TraceRecorder.mark("Task(on:): \(onQueue)")
        let visits = QueuedVisits()
        visits.queue.enqueue { _ in TraceRecorder.mark("ActorQueue item: \(currentTaskHasPreference())") }
        await visits.queue.enqueueAndWait { _ in }
      }
      #expect(Self.leavesMark(result, "drainer: true"))
      #expect(Self.leavesMark(result, "Task(on:): true"))
      #expect(Self.leavesMark(result, "ActorQueue item: true"))
      #expect(result.everyHopWasAChoice)
    }

    /// The shape the queues' tasks ship with, run under the harness (see
    /// `HarnessQueueObserver.taskExecutorForNewTasks`), in a process of its own: `Task(on:)`, from
    /// nonisolated code and from an actor, still gets the harness's preference from the test
    /// binary's task creation, so its hops are choices and the queue's order holds on every
    /// schedule. An `ActorQueue` item, started with `Task.immediate` and a literal nil preference,
    /// depends on the build: unoptimized, that nil still reaches the runtime as a preference
    /// record of the task's own, which the test binary's task creation leaves alone, and the run
    /// reports its task as one that may hop inline; optimized, the nil folds away and the item
    /// gets the harness's preference like any task. The unoptimized item is why the queues take
    /// the observer's preference under a run.
    @available(ExecutorHooks 1.0, *)
    @Test func theShippingShapeUnderTheHarness() async throws {
      try #require(Self.interposeProbe(), "a task made in a run prefers the harness's executor")
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let result = ControlledExecutor.runBlocking(
          strategy: SeededRandomStrategy(seed: 1), model: .faithful { $0.queueTasksPreferHarness = false }
        ) {
          let queue = FIFOQueue()
          let onQueue = await Task(on: queue) { currentTaskHasPreference() }.value
          TraceRecorder.mark("Task(on:): \(onQueue)")
          let fromActor = await ShapeProbe().start(on: queue).value
          TraceRecorder.mark("Task(on:) from an actor: \(fromActor)")
          let visits = QueuedVisits()
          visits.queue.enqueue { _ in TraceRecorder.mark("ActorQueue item: \(currentTaskHasPreference())") }
          await visits.queue.enqueueAndWait { _ in }
        }
        let marks = result.trace.events.compactMap { if case .mark(let text) = $0.kind { text } else { nil } }
        print("marks: \(marks.joined(separator: ", ")); every hop a choice: \(result.everyHopWasAChoice)")
        var inOrder = 0
        for seed in UInt64(1)...30 {
          let ordered = ControlledExecutor.runBlocking(seed: seed) {
            let queue = FIFOQueue()
            let log = ArrivalLog()
            let tasks = (0..<4).map { item in Task(on: queue) { await log.append("\(item)") } }
            for task in tasks { await task.value }
            TraceRecorder.mark(await log.entries.joined())
          }
          if HopSchedulingTests.leavesMark(ordered, "0123") { inOrder += 1 }
        }
        print("in order: \(inOrder) of 30")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("Task(on:): true, Task(on:) from an actor: true"), "\(output)")
      #if DEBUG
        #expect(output.contains("ActorQueue item: false; every hop a choice: false"), "\(output)")
      #else
        #expect(output.contains("ActorQueue item: true; every hop a choice: true"), "\(output)")
      #endif
      #expect(output.contains("in order: 30 of 30"), "\(output)")
    }

    /// `Task.sleep`'s own timer task only resumes the sleeper: it is not reported.
    @available(ExecutorHooks 1.0, *)
    @Test func sleepingNextToAnActorKeepsEveryHopAChoice() {
      let result = ControlledExecutor.runBlocking(seed: 1) {
        let visits = HopVisits()
        async let one: Void = visits.visit("1")
        async let two: Void = { try? await Task.sleep(for: .milliseconds(5)) }()
        _ = await (one, two)
      }
      #expect(result.outcome == .completed)
      #expect(result.inlineHopTasks.isEmpty)
    }

    /// A body whose space really is small (structured tasks, one actor) is still exhausted.
    @available(ExecutorHooks 1.0, *)
    @Test func aSmallSpaceIsStillExhausted() {
      let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil, budget: 1_000)) {
        let visits = HopVisits()
        async let one: Void = visits.visit("1")
        async let two: Void = visits.visit("2")
        _ = await (one, two)
      }
      #expect(exploration.search.isExhausted)
      #expect(exploration.search.inlineHopTasks.isEmpty)
      #expect(exploration.search.schedulesExplored > 1)
      #expect(exploration.search.schedulesExplored < 1_000)
    }
  }

  /// Isolation checks behave under control as on real threads.
  @Suite("Isolation under control", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct IsolationUnderControlTests {
    @available(ExecutorHooks 1.0, *)
    @Test func mainActorAssumeIsolatedPassesOnMainActorCode() {
      let result = ControlledExecutor.runBlocking(seed: 1) {
        await Task { @MainActor in assumeMainActor() }.value
      }
      #expect(result.outcome == .completed)
      #expect(HopSchedulingTests.leavesMark(result, "main assumed"))
    }

    @available(ExecutorHooks 1.0, *)
    @Test func actorAssumeIsolatedAndIsolationParameterNameTheActor() {
      let result = ControlledExecutor.runBlocking(seed: 1) {
        let visits = HopVisits()
        await visits.checkIsolation()
      }
      #expect(result.outcome == .completed)
      #expect(HopSchedulingTests.leavesMark(result, "isolation is the actor"))
      #expect(HopSchedulingTests.leavesMark(result, "actor assumed"))
    }

    @available(ExecutorHooks 1.0, *)
    @Test func preconditionIsolatedPassesOnTheActorsOwnExecutor() {
      let result = ControlledExecutor.runBlocking(seed: 1) {
        let visits = HopVisits()
        await visits.checkPrecondition()
        await MainActor.run { MainActor.preconditionIsolated() }
        TraceRecorder.mark("preconditions held")
      }
      #expect(result.outcome == .completed)
      #expect(HopSchedulingTests.leavesMark(result, "preconditions held"))
    }

    @available(ExecutorHooks 1.0, *)
    @Test func isolationIsNilInNonisolatedCode() {
      let result = ControlledExecutor.runBlocking(seed: 1) {
        await nonisolatedIsolationCheck()
      }
      #expect(HopSchedulingTests.leavesMark(result, "nonisolated: no isolation"))
    }

    /// `Task.immediate` runs synchronously up to its first suspension, on every schedule, on
    /// the main actor and from an actor alike.
    @available(ExecutorHooks 1.0, *)
    @Test func taskImmediateRunsUpToItsFirstSuspensionBeforeTheCallerGoesOn() {
      for seed in UInt64(1)...20 {
        let result = ControlledExecutor.runBlocking(seed: seed) {
          let visits = HopVisits()
          await visits.startImmediately()
          await MainActor.run {
            _ = Task.immediate { @MainActor in
              TraceRecorder.mark("main immediate body")
              await Task.yield()
            }
            TraceRecorder.mark("main caller goes on")
          }
        }
        let marks = result.trace.events.compactMap { if case .mark(let label) = $0.kind { label } else { nil } }
        #expect(
          marks.starts(with: [
            "actor immediate body", "actor caller goes on", "main immediate body", "main caller goes on",
          ]),
          "seed \(seed): \(marks)")
      }
    }
  }

  actor HopAudit {
    var entries = 0
    func record() { entries += 1 }
  }

  actor HopAccount {
    var balance = 100
    let audit = HopAudit()

    /// Reads, awaits a synchronous method of another actor, writes: two of these can interleave.
    func withdrawAuditing(_ amount: Int) async {
      let read = balance
      await audit.record()
      balance = read - amount
    }

    func withdrawThroughHelper(_ amount: Int) async {
      let read = balance
      await hopHelper()
      balance = read - amount
    }

    func withdrawThroughMainActor(_ amount: Int) async {
      let read = balance
      await MainActor.run { _ = hopHelperCalls.add(1, ordering: .relaxed) }
      balance = read - amount
    }
  }

  /// An actor whose executor is the main actor's (a custom executor).
  actor MainExecutorCounter {
    nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
    var count = 0
    let audit = HopAudit()

    func incrementAuditing() async {
      let read = count
      await audit.record()
      count = read + 1
    }
  }

  /// An actor with an `ActorQueue` of its own.
  actor QueuedVisits {
    let queue = ActorQueue<QueuedVisits>()
    init() { queue.adoptExecutionContext(of: self) }
  }

  actor HopVisits {
    var log: [String] = []
    func visit(_ name: String) { log.append(name) }
    func snapshot(_ order: LockedOrder) { log = order.names }

    func checkIsolation() {
      if #isolation === self { TraceRecorder.mark("isolation is the actor") }
      assumeIsolatedHere(self)
    }

    func checkPrecondition() {
      preconditionIsolated()
    }

    @available(ExecutorHooks 1.0, *)
    func startImmediately() {
      _ = Task.immediate {
        TraceRecorder.mark("actor immediate body")
        await Task.yield()
      }
      TraceRecorder.mark("actor caller goes on")
    }
  }

  nonisolated func assumeIsolatedHere(_ visits: HopVisits) {
    _ = visits.assumeIsolated { _ in TraceRecorder.mark("actor assumed") }
  }

  /// Synchronous code that asserts it runs on the main actor.
  nonisolated func assumeMainActor() {
    _ = MainActor.assumeIsolated { TraceRecorder.mark("main assumed") }
  }

  func nonisolatedIsolationCheck(isolation: isolated (any Actor)? = #isolation) async {
    if isolation == nil { TraceRecorder.mark("nonisolated: no isolation") }
  }

  let hopHelperCalls = Atomic<Int>(0)

  /// Whether the current task has a task-executor preference.
  func currentTaskHasPreference() -> Bool {
    withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil }
  }

  /// Creates its increments as tasks inside its own method: they are isolated to it, and each
  /// hops to another actor (`audit`) in the middle. Buggy: read, hop, write (a lost update).
  /// A stock of one item: `available` then `take` is a check-then-act across two calls.
  actor Stock {
    private(set) var count = 1
    func available() -> Int { count }
    func take() { count -= 1 }
  }

  /// Nonisolated work between a check and an act: the task leaves the actor for it. Not inlined:
  /// an optimized build would otherwise see a comparison that needs no executor, keep the task on
  /// the actor from check to act, and so make the pair atomic on real threads too.
  @inline(never)
  func worthBuying(_ left: Int) -> Bool { left > 0 }

  actor SpawningCounter {
    private(set) var count = 0
    let audit = HopAudit()

    func spawnIncrements(fixed: Bool) -> [Task<Void, Never>] {
      (0..<2).map { _ in
        Task {
          if fixed {
            self.count += 1
            await self.audit.record()
          } else {
            let read = self.count
            await self.audit.record()
            self.count = read + 1
          }
        }
      }
    }
  }

  /// A nonisolated async function that does not suspend: calling it from an actor is a hop off
  /// the actor and back.
  @inline(never) nonisolated func hopHelper() async {
    hopHelperCalls.add(1, ordering: .relaxed)
  }

  /// Visits `first`, runs nonisolated code, then visits `second`.
  func visitBoth(_ name: String, _ first: HopVisits, _ second: HopVisits) async {
    await first.visit(name)
    await hopHelper()
    await second.visit(name)
  }

  /// Appends `name` under a lock, then hops onto the actor and logs what the lock holds there:
  /// another task's append shows up only if the hop let it run in between.
  func appendThenSnapshot(_ name: String, _ order: LockedOrder, _ visits: HopVisits) async {
    order.append(name)
    await visits.snapshot(order)
  }

  /// Names appended under a lock, from any task.
  final class LockedOrder: Sendable {
    private let lock = Mutex<[String]>([])
    var names: [String] { lock.withLock { $0 } }
    func append(_ name: String) { lock.withLock { $0.append(name) } }
  }

  /// An actor that keeps what it is given, in order.
  actor ArrivalLog {
    private(set) var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
  }

  /// Starts a `Task(on:)` from an actor, as the queue's shipping shape does (on its caller's actor).
  actor ShapeProbe {
    func start(on queue: FIFOQueue) -> Task<Bool, Never> {
      Task(on: queue) { currentTaskHasPreference() }
    }
  }
#endif
