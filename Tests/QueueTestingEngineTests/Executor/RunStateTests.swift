#if compiler(>=6.3)
  import Testing

  @_spi(Strategies) @testable import QueueTestingEngine
  import QueueWorkloads

  /// The driver's state machine, step by step: which job runs next, how choices are recorded,
  /// when virtual time moves, and how a run ends. Jobs are stand-in handles that are never run.
  @Suite("Run state", .timeLimit(.minutes(5)), .hangGuard)
  struct RunStateTests {
    /// A begun run holding stand-in job `number` for each entry, in order.
    @available(ExecutorHooks 1.0, *)
    static func state(holding jobs: [(number: Int, taskID: UInt64, source: RunDriver.Source)]) -> RunState {
      var state = RunState()
      state.begin()
      for job in jobs { state.hold(StandInJob.make(job.number), taskID: job.taskID, source: job.source) }
      return state
    }

    /// Runs steps until the state asks for something other than running a job; returns the
    /// numbers of the jobs it ran and the step it stopped at.
    @available(ExecutorHooks 1.0, *)
    static func runAll(
      _ state: inout RunState, strategy: inout ReplayStrategy, stepBudget: Int = 100,
      outsideWakeUpExpected: Bool = false
    ) -> (ran: [Int], stop: RunState.Step) {
      var ran: [Int] = []
      while true {
        let step = state.nextStep(
          strategy: &strategy, stepBudget: stepBudget, outsideWakeUpExpected: outsideWakeUpExpected)
        guard case .run(let held) = step else { return (ran, step) }
        ran.append(StandInJob.number(of: held.job))
      }
    }

    @Test("The strategy picks among runnable jobs in the order they were held; only real choices are recorded")
    @available(ExecutorHooks 1.0, *)
    func choicesFollowHoldOrder() {
      var state = Self.state(holding: [(1, 500, .global), (2, 600, .main), (3, 500, .global)])
      #expect(state.newTasks == [500, 600])
      var strategy = ReplayStrategy(Schedule(choices: [2, 0]))
      state.rootDone = true
      let (ran, stop) = Self.runAll(&state, strategy: &strategy)
      #expect(ran == [3, 1, 2])
      guard case .end(.completed) = stop else {
        Issue.record("expected the run to complete, got \(stop)")
        return
      }
      let (leftovers, result) = state.end(.completed, strategySummary: nil)
      #expect(leftovers.isEmpty)
      #expect(result.schedule == Schedule(choices: [2, 0]))
      #expect(result.branching == [3, 2])
      #expect(result.trace.events.map(\.task) == [1, 1, 2])
      #expect(result.trace.events.map(\.kind) == [.ran(.global), .ran(.global), .ran(.main)])
    }

    @Test(
      "Virtual time moves only when nothing is runnable, to the earliest timer; timers due together keep their order")
    @available(ExecutorHooks 1.0, *)
    func timersAdvanceVirtualTime() {
      var state = Self.state(holding: [
        (1, 1, .timer(delay: 3_000_000)),
        (2, 2, .timer(delay: 1)),  // rounds up to 1 ms
        (3, 3, .global),
        (4, 4, .timer(delay: 1_000_000)),
      ])
      var strategy = ReplayStrategy(Schedule(choices: []))
      let (ran, stop) = Self.runAll(&state, strategy: &strategy)
      #expect(ran == [3, 2, 4, 1])
      #expect(state.now == 3_000_000)
      #expect(state.trace.events.map(\.virtualTime) == [0, 1_000_000, 1_000_000, 3_000_000])
      #expect(state.trace.events.map(\.kind) == [.ran(.global), .ran(.timer), .ran(.timer), .ran(.timer)])
      guard case .end(.deadlocked) = stop else {
        Issue.record("the root never finished: expected a deadlock, got \(stop)")
        return
      }
    }

    @Test("Nothing runnable: wait for an expected outside wake-up before moving time; end when the root is done")
    @available(ExecutorHooks 1.0, *)
    func emptyStateDecisions() {
      var state = Self.state(holding: [(1, 1, .timer(delay: 5_000_000))])
      var strategy = ReplayStrategy(Schedule(choices: []))
      guard
        case .waitForOutsideWakeUp = state.nextStep(strategy: &strategy, stepBudget: 10, outsideWakeUpExpected: true)
      else {
        Issue.record("expected to wait for the outside wake-up")
        return
      }
      #expect(state.now == 0, "virtual time waits for the expected wake-up")
      state.rootDone = true
      guard case .end(.completed) = state.nextStep(strategy: &strategy, stepBudget: 10, outsideWakeUpExpected: false)
      else {
        Issue.record("expected the run to complete")
        return
      }
      let (leftovers, _) = state.end(.completed, strategySummary: nil)
      #expect(leftovers.map { StandInJob.number(of: $0.job) } == [1], "a completed run hands its timers back")
    }

    @Test("Main-actor jobs run in the order they were held, under every schedule; the strategy only chooses when")
    @available(ExecutorHooks 1.0, *)
    func mainActorJobsKeepTheirOrder() {
      // Main-actor jobs 1, 2, 3 (tasks 10, 11, 12) and global jobs 4, 5; every schedule the
      // state offers, explored depth first.
      let jobs: [(number: Int, taskID: UInt64, source: RunDriver.Source)] = [
        (1, 10, .main), (4, 20, .global), (2, 11, .main), (5, 21, .global), (3, 12, .main),
      ]
      var search = ExhaustiveSearch(delayBound: nil, budget: 1_000)
      var orders = Set<[Int]>()
      while let exhaustive = search.nextStrategy() {
        var state = Self.state(holding: jobs)
        state.rootDone = true
        var strategy = exhaustive
        var ran: [Int] = []
        while case .run(let held) = state.nextStep(strategy: &strategy, stepBudget: 100, outsideWakeUpExpected: false) {
          ran.append(StandInJob.number(of: held.job))
        }
        #expect(ran.filter { $0 <= 3 } == [1, 2, 3], "main-actor jobs out of order: \(ran)")
        orders.insert(ran)
        let (_, result) = state.end(.completed, strategySummary: nil)
        search.record(result)
      }
      #expect(search.ranEverySchedule)
      // Every interleaving of the main lane (1, 2, 3) with the global jobs 4 and 5 (in either
      // order) is offered: 5! / 3! = 20 orders.
      #expect(orders.count == 20)
    }

    @Test("Main-actor jobs left over by a completed run are handed back in their order, after the runnable one")
    @available(ExecutorHooks 1.0, *)
    func mainActorLeftoversKeepTheirOrder() {
      var state = Self.state(holding: [(1, 10, .main), (2, 11, .main), (3, 20, .global), (4, 12, .main)])
      let (leftovers, _) = state.end(.completed, strategySummary: nil)
      #expect(leftovers.map { StandInJob.number(of: $0.job) } == [1, 3, 2, 4])
      #expect(leftovers.filter(\.isMain).map { StandInJob.number(of: $0.job) } == [1, 2, 4])
    }

    @Test("The step budget ends a run that keeps running; an abandoned run hands nothing back")
    @available(ExecutorHooks 1.0, *)
    func stepBudget() {
      var state = Self.state(holding: [(1, 1, .global), (2, 2, .global), (3, 3, .global)])
      var strategy = ReplayStrategy(Schedule(choices: []))
      let (ran, stop) = Self.runAll(&state, strategy: &strategy, stepBudget: 2)
      #expect(ran == [1, 2])
      guard case .end(.stepBudgetExceeded(steps: 2)) = stop else {
        Issue.record("expected the step budget to end the run, got \(stop)")
        return
      }
      let (leftovers, result) = state.end(.stepBudgetExceeded(steps: 2), strategySummary: nil)
      #expect(leftovers.isEmpty)
      #expect(result.steps == 2)
    }
  }
#endif
