#if compiler(>=6.3)
  import QueueTestingEngine

  /// Runs a ``Scenario`` under many schedules of the ``ControlledExecutor`` and checks its
  /// guarantees and expected outcome on every one, stopping at the first failure.
  package enum ScenarioRunner {
    /// How schedules are chosen.
    package enum StrategyKind: String, CaseIterable, Sendable {
      /// ``SeededRandomStrategy``, one derived seed per schedule.
      case random
      /// ``PCTStrategy`` (depth 3), one derived seed per schedule.
      case pct
      /// ``ExhaustiveSearch`` with a delay bound of 2; the schedule count is its budget.
      case exhaustive
      /// ``ScheduleSeries/portfolio(_:seed:)``: random and PCT of depths 2 and 3 in turn.
      case portfolio
    }

    /// What to run.
    package struct Options: Sendable {
      /// How many schedules (at most, for exhaustive search).
      package var schedules: Int
      /// The seed the per-schedule seeds derive from.
      package var seed: UInt64
      /// How schedules are chosen.
      package var strategy: StrategyKind
      /// The queues to run against.
      package var implementation: QueueImplementation
      /// The most jobs per schedule.
      package var stepBudget: Int
      /// Run every schedule twice and fail when the two traces differ (a trace-hash mismatch is
      /// a failure of its own kind, ``ScenarioProblem/nondeterminism(firstHash:secondHash:)``).
      package var checkDeterminism: Bool

      /// The schedules these options describe.
      package var series: ScheduleSeries {
        switch strategy {
        case .random: .random(schedules, seed: seed)
        case .pct: .pct(schedules, depth: 3, seed: seed)
        case .exhaustive: .exhaustive(delayBound: 2, budget: max(schedules, 1))
        case .portfolio: .portfolio(schedules, seed: seed)
        }
      }

      /// Creates options.
      package init(
        schedules: Int = 100, seed: UInt64 = 0, strategy: StrategyKind = .random,
        implementation: QueueImplementation = .real, stepBudget: Int = ControlledExecutor.defaultStepBudget,
        checkDeterminism: Bool = false
      ) {
        self.schedules = schedules
        self.seed = seed
        self.strategy = strategy
        self.implementation = implementation
        self.stepBudget = stepBudget
        self.checkDeterminism = checkDeterminism
      }
    }

    /// The result of running one scenario: what its series did (``SeriesReport``), with the
    /// scenario, the options and the time it took.
    package struct Report: Sendable {
      /// The scenario.
      package var scenario: Scenario
      /// The options used.
      package var options: Options
      /// What the series did: the schedules run, the failure, the coverage.
      package var series: SeriesReport<ScenarioProblem>
      /// Real time taken.
      package var elapsed: Duration

      /// Schedules run (up to and including a failing one).
      package var schedulesRun: Int { series.schedulesRun }
      /// Whether an exhaustive search covered its whole space (see ``ExhaustiveSearch/isExhausted``).
      package var exhausted: Bool? { series.exhausted }
      /// The first failure, if any.
      package var failure: ScheduleFailure<ScenarioProblem>? { series.failure }
      /// The tasks of the first run that could leave an actor without a scheduling point (see
      /// ``SeriesReport/inlineHopTasks``).
      package var inlineHopTasks: [String] { series.inlineHopTasks }
      /// Distinct interleavings among the schedules run, and how long since the last new one.
      package var coverage: TraceCoverage { series.coverage }
    }

    /// Runs `scenario` once under `strategy`; returns the run and the items' events.
    @available(ExecutorHooks 1.0, *)
    package static func runOnce(
      _ scenario: Scenario, implementation: QueueImplementation = .real,
      strategy: some ScheduleStrategy & Sendable, stepBudget: Int = ControlledExecutor.defaultStepBudget
    ) -> (RunResult, ScenarioEvents) {
      let execution = ScenarioExecution(scenario: scenario, implementation: implementation)
      // A scenario's code is all Swift concurrency the harness controls: nothing comes from
      // outside, so a deadlock is reported at once.
      let result = ControlledExecutor.runBlocking(
        strategy: strategy, stepBudget: stepBudget, outsideWorkTimeout: .zero, jobTimeLimit: nil
      ) {
        await execution.run()
      }
      return (result, execution.events)
    }

    /// Checks one run against the scenario's expectations.
    package static func evaluate(_ scenario: Scenario, _ result: RunResult, _ events: ScenarioEvents)
      -> ScenarioProblem?
    {
      let completed = result.outcome == .completed
      let deadlocked = if case .deadlocked = result.outcome { true } else { false }
      switch scenario.outcome {
      case .completes where !completed, .deadlocks where !deadlocked, .any where !completed && !deadlocked:
        return .unexpectedOutcome(expected: scenario.outcome, observed: result.outcome)
      default:
        break
      }
      var violations = OrderingOracle.check(events.ordering, guarantees: scenario.checks)
      violations += SemaphoreOracle.check(
        events.semaphores, semaphores: scenario.semaphores, guarantees: scenario.checks)
      guard !violations.isEmpty else { return nil }
      for index in violations.indices { violations[index].schedule = result.schedule }
      return .guarantees(violations)
    }

    /// Runs `scenario` once under `strategy` and checks it; with `checkDeterminism`, runs the
    /// recorded schedule a second time and compares the trace hashes.
    /// - Returns: The (first) run, and its failure if any.
    @available(ExecutorHooks 1.0, *)
    package static func check(
      _ scenario: Scenario, strategy: some ScheduleStrategy & Sendable, options: Options
    ) -> (run: RunResult, failure: ScenarioProblem?) {
      let (result, events) = runOnce(
        scenario, implementation: options.implementation, strategy: strategy, stepBudget: options.stepBudget)
      if let kind = evaluate(scenario, result, events) { return (result, kind) }
      guard options.checkDeterminism else { return (result, nil) }
      let (again, _) = runOnce(
        scenario, implementation: options.implementation, strategy: ReplayStrategy(result.schedule),
        stepBudget: options.stepBudget)
      guard again.trace.hash == result.trace.hash else {
        return (result, .nondeterminism(firstHash: result.trace.hash, secondHash: again.trace.hash))
      }
      return (result, nil)
    }

    /// Runs `scenario` under its regression schedules (``Scenario/regressionSchedules``) and then
    /// `options.schedules` schedules of the options' series; stops at the first failure.
    @available(ExecutorHooks 1.0, *)
    package static func run(_ scenario: Scenario, options: Options) -> Report {
      let clock = ContinuousClock()
      let start = clock.now
      // Not reduced here: `queue-fuzz shrink` reduces a failure along with its scenario.
      let series = SeriesRunner(options.series, leadingSchedules: scenario.regressionSchedules).run { schedule in
        let (run, problem) = check(scenario, strategy: schedule.strategy, options: options)
        return (run, SeriesRunner.Judgement(problem))
      }
      return Report(scenario: scenario, options: options, series: series, elapsed: start.duration(to: clock.now))
    }
  }
#endif
