#if compiler(>=6.3)
  import QueueTestingEngine

  /// Runs a ``Scenario`` under many schedules of the ``ControlledExecutor`` and checks its
  /// guarantees and expected outcome on every one, stopping at the first failure.
  public enum ScenarioRunner {
    /// How schedules are chosen.
    public enum StrategyKind: String, CaseIterable, Sendable {
      /// ``SeededRandomStrategy``, one derived seed per schedule.
      case random
      /// ``PCTStrategy`` (depth 3), one derived seed per schedule.
      case pct
      /// ``ExhaustiveSearch`` with a delay bound of 2; the schedule count is its budget.
      case exhaustive
      /// ``ScheduleSeries/portfolio(_:seed:)``: random and PCT of depths 1 to 3 in turn.
      case portfolio
    }

    /// What to run.
    public struct Options: Sendable {
      /// How many schedules (at most, for exhaustive search).
      public var schedules: Int
      /// The seed the per-schedule seeds derive from.
      public var seed: UInt64
      /// How schedules are chosen.
      public var strategy: StrategyKind
      /// The queues to run against.
      public var implementation: QueueImplementation
      /// The most jobs per schedule.
      public var stepBudget: Int
      /// Run every schedule twice and fail when the two traces differ (a trace-hash mismatch is
      /// a failure of its own kind, ``FailureKind/nondeterminism(firstHash:secondHash:)``).
      public var checkDeterminism: Bool

      /// The schedules these options describe.
      public var series: ScheduleSeries {
        switch strategy {
        case .random: .random(schedules, seed: seed)
        case .pct: .pct(schedules, depth: 3, seed: seed)
        case .exhaustive: .exhaustive(delayBound: 2, budget: max(schedules, 1))
        case .portfolio: .portfolio(schedules, seed: seed)
        }
      }

      /// Creates options.
      public init(
        schedules: Int = 100, seed: UInt64 = 0, strategy: StrategyKind = .random,
        implementation: QueueImplementation = .real, stepBudget: Int = 100_000, checkDeterminism: Bool = false
      ) {
        self.schedules = schedules
        self.seed = seed
        self.strategy = strategy
        self.implementation = implementation
        self.stepBudget = stepBudget
        self.checkDeterminism = checkDeterminism
      }
    }

    /// Why a schedule failed.
    public enum FailureKind: Equatable, Sendable {
      /// Ordering guarantees were broken.
      case guarantees([OrderingViolation])
      /// The run ended otherwise than the scenario expects.
      case outcome(expected: Scenario.Outcome, observed: String)
      /// The same schedule, run twice, gave two different traces: something outside the
      /// schedule's control (state kept between runs, real time, an uncaptured thread) changed
      /// the run.
      case nondeterminism(firstHash: UInt64, secondHash: UInt64)

      /// What failed, as a stable word: the broken guarantees' names (sorted, comma-separated),
      /// `outcome:` and what the run did instead (`outcome:deadlocks`, `outcome:completes`,
      /// `outcome:step-budget`, `outcome:outside-wake-up`), or `nondeterminism`. Shrinking keeps
      /// a failure of the same signature.
      public var signature: String {
        switch self {
        case .guarantees(let violations):
          Array(Set(violations.compactMap(\.guarantee?.rawValue))).sorted().joined(separator: ",")
        case .outcome(_, let observed):
          if observed == "completes" || observed == "deadlocks" {
            "outcome:" + observed
          } else if observed.hasPrefix("step budget") {
            "outcome:step-budget"
          } else {
            "outcome:outside-wake-up"
          }
        case .nondeterminism:
          "nondeterminism"
        }
      }

      /// Whether this failure includes `word`, one of the comma-separated words of a
      /// ``signature`` (a guarantee's name, `outcome:deadlocks`, `nondeterminism`, ...).
      public func includes(_ word: String) -> Bool {
        signature.split(separator: ",").contains { $0 == word }
      }
    }

    /// One failing schedule, with what it takes to replay it.
    public struct Failure: Sendable {
      /// What failed.
      public var kind: FailureKind
      /// The failing schedule's number (from 1).
      public var scheduleNumber: Int
      /// The run.
      public var run: RunResult

      /// Creates a failure record.
      public init(kind: FailureKind, scheduleNumber: Int, run: RunResult) {
        self.kind = kind
        self.scheduleNumber = scheduleNumber
        self.run = run
      }

      /// The broken guarantees' names, or `outcome`.
      public var summary: String {
        switch kind {
        case .guarantees(let violations):
          Array(Set(violations.compactMap(\.guarantee?.rawValue))).sorted().joined(separator: ", ")
        case .outcome(let expected, let observed):
          "outcome: expected \(expected.rawValue), observed \(observed)"
        case .nondeterminism(let first, let second):
          "nondeterminism: the same schedule gave trace hashes \(String(first, radix: 16)) and \(String(second, radix: 16))"
        }
      }
    }

    /// The result of running one scenario.
    public struct Report: Sendable {
      /// The scenario.
      public var scenario: Scenario
      /// The options used.
      public var options: Options
      /// Schedules run (up to and including a failing one).
      public var schedulesRun: Int
      /// Whether an exhaustive search covered its whole space (see ``ExhaustiveSearch/isExhausted``).
      public var exhausted: Bool?
      /// The first failure, if any.
      public var failure: Failure?
      /// Real time taken.
      public var elapsed: Duration
      /// The tasks of the first run that could leave an actor without a scheduling point, named
      /// as its trace names them (see ``RunResult/inlineHopTasks``); empty if no run had any.
      public var inlineHopTasks: [String] = []
      /// Distinct interleavings among the schedules run, and how long since the last new one.
      public var coverage = TraceCoverage()
    }

    /// Runs `scenario` once under `strategy`; returns the run and the items' events.
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    public static func runOnce(
      _ scenario: Scenario, implementation: QueueImplementation = .real,
      strategy: some ScheduleStrategy & Sendable, stepBudget: Int = 100_000
    ) -> (RunResult, [OrderingEvent]) {
      let execution = ScenarioExecution(scenario: scenario, implementation: implementation)
      // A scenario's code is all Swift concurrency the harness controls: nothing comes from
      // outside, so a deadlock is reported at once.
      let result = ControlledExecutor.runBlocking(strategy: strategy, stepBudget: stepBudget, outsideWorkTimeout: .zero)
      {
        await execution.run()
      }
      return (result, execution.events)
    }

    /// Checks one run against the scenario's expectations.
    public static func evaluate(_ scenario: Scenario, _ result: RunResult, _ events: [OrderingEvent]) -> FailureKind? {
      let observed: String
      switch result.outcome {
      case .completed: observed = "completes"
      case .deadlocked: observed = "deadlocks"
      case .stepBudgetExceeded(let steps): observed = "step budget exceeded after \(steps) steps"
      case .outsideWakeUpNeverCame(let labels):
        observed = "outside wake-up never came (\(labels.joined(separator: ", ")))"
      }
      switch scenario.outcome {
      case .completes where observed != "completes", .deadlocks where observed != "deadlocks":
        return .outcome(expected: scenario.outcome, observed: observed)
      case .any where observed != "completes" && observed != "deadlocks":
        return .outcome(expected: scenario.outcome, observed: observed)
      default:
        break
      }
      var violations = OrderingOracle.check(events, guarantees: scenario.checks)
      guard !violations.isEmpty else { return nil }
      for index in violations.indices { violations[index].schedule = result.schedule }
      return .guarantees(violations)
    }

    /// Runs `scenario` once under `strategy` and checks it; with `checkDeterminism`, runs the
    /// recorded schedule a second time and compares the trace hashes.
    /// - Returns: The (first) run, and its failure if any.
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    public static func check(
      _ scenario: Scenario, strategy: some ScheduleStrategy & Sendable, options: Options
    ) -> (run: RunResult, failure: FailureKind?) {
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
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    public static func run(_ scenario: Scenario, options: Options) -> Report {
      let clock = ContinuousClock()
      let start = clock.now
      var report = Report(
        scenario: scenario, options: options, schedulesRun: 0, exhausted: nil, failure: nil, elapsed: .zero)
      // Checks one schedule and records it; false when it failed (the run stops there).
      func checkAndRecord(_ strategy: some ScheduleStrategy & Sendable) -> (result: RunResult, keepGoing: Bool) {
        let (result, kind) = check(scenario, strategy: strategy, options: options)
        report.schedulesRun += 1
        report.coverage.record(result.trace.hash)
        if report.inlineHopTasks.isEmpty && !result.inlineHopTasks.isEmpty {
          report.inlineHopTasks = result.inlineHopTaskLabels
        }
        guard let kind else { return (result, true) }
        report.failure = Failure(kind: kind, scheduleNumber: report.schedulesRun, run: result)
        return (result, false)
      }
      for schedule in scenario.regressionSchedules {
        guard checkAndRecord(ReplayStrategy(schedule)).keepGoing else {
          report.elapsed = start.duration(to: clock.now)
          return report
        }
      }
      let exhausted = options.series.runSchedules { checkAndRecord($0) }
      report.exhausted = exhausted
      report.elapsed = start.duration(to: clock.now)
      return report
    }
  }
#endif
