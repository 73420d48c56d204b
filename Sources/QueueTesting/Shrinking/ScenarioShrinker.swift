#if compiler(>=6.3)
  /// Makes a failing scenario and its schedule as small as it can while the same guarantee still
  /// fails: fewer callers, items, queues and steps, plainer steps, and fewer preemptions.
  ///
  /// Deterministic: the same scenario, schedule and settings shrink to the same result. A
  /// reduction of the scenario changes what a schedule's choices mean, so each candidate is run
  /// under the current schedule, then under the schedule that always picks the oldest runnable
  /// job, then under ``schedulesPerCandidate`` seeded random schedules; the first that fails the
  /// same way is kept. Then the schedule's preemptions are taken out, in halves and then one by
  /// one, while the failure holds. Scenario and schedule passes repeat until neither shrinks.
  public struct ScenarioShrinker: Sendable {
    /// A shrunk failure.
    public struct Result: Sendable {
      /// The shrunk scenario; its ``Scenario/regressionSchedules`` hold ``schedule``, so running
      /// it replays the failure first.
      public var scenario: Scenario
      /// The shrunk schedule (trailing zeros trimmed).
      public var schedule: Schedule
      /// The failure the shrunk case still has.
      public var failure: ScenarioRunner.FailureKind
      /// The word of the failure's signature that was kept failing (a guarantee's name,
      /// `outcome:deadlocks`, `nondeterminism`, ...).
      public var kept: String
      /// The size of the case given.
      public var before: ShrinkSize
      /// The size of the shrunk case.
      public var after: ShrinkSize
      /// Schedules run while shrinking.
      public var runs: Int
      /// Whether the run budget ended the shrink before it reached a fixed point.
      public var budgetReached: Bool
    }

    /// How each schedule is run and checked (the queue implementation, the step budget, whether
    /// to check determinism). The schedule count and strategy are not used.
    public var options: ScenarioRunner.Options
    /// Seeded random schedules tried for a candidate when neither the current schedule nor the
    /// oldest-first schedule fails it.
    public var schedulesPerCandidate: Int
    /// The most schedules to run in all; past it the smallest case found so far is returned.
    public var runBudget: Int

    /// Creates a shrinker.
    public init(options: ScenarioRunner.Options = .init(), schedulesPerCandidate: Int = 8, runBudget: Int = 50_000) {
      self.options = options
      self.schedulesPerCandidate = schedulesPerCandidate
      self.runBudget = runBudget
    }

    /// Shrinks `scenario`, which fails under `schedule`.
    /// - Returns: nil when `scenario` does not fail under `schedule` (nothing to shrink).
    public func shrink(_ scenario: Scenario, schedule: Schedule) -> Result? {
      var search = Search(shrinker: self)
      var scenario = scenario
      scenario.regressionSchedules = []
      let (firstRun, firstFailure) = search.check(scenario, ReplayStrategy(schedule))
      guard let firstFailure else { return nil }
      // Keep the first broken guarantee (or the outcome), so the shrunk case fails the same way.
      let kept: String
      if case .guarantees(let violations) = firstFailure, let guarantee = violations.first?.guarantee {
        kept = guarantee.rawValue
      } else {
        kept = firstFailure.signature
      }
      search.kept = kept
      var current = Case(scenario: scenario, schedule: firstRun.schedule.trimmed, failure: firstFailure)
      let before = ShrinkSize(scenario, current.schedule)

      var shrinking = true
      while shrinking && !search.budgetReached {
        let scenarioShrunk = search.shrinkScenario(&current)
        let scheduleShrunk = search.shrinkSchedule(&current)
        shrinking = scenarioShrunk || scheduleShrunk
      }
      // Canonical names (q1, c1, i1, ... in declaration order), so that the same small case found
      // from two big ones reads the same; kept only if it still fails the same way.
      let renamed = current.scenario.renamedCanonically()
      if renamed != current.scenario, let failing = search.failingCase(renamed, hint: current.schedule),
        ShrinkSize(failing.scenario, failing.schedule) == ShrinkSize(current.scenario, current.schedule)
      {
        current = failing
      }
      current.scenario.name = scenario.name
      current.scenario.path = nil
      current.scenario.regressionSchedules = [current.schedule]
      return Result(
        scenario: current.scenario, schedule: current.schedule, failure: current.failure, kept: kept,
        before: before, after: ShrinkSize(current.scenario, current.schedule), runs: search.runs,
        budgetReached: search.budgetReached)
    }

    /// A failing case.
    private struct Case {
      var scenario: Scenario
      var schedule: Schedule
      var failure: ScenarioRunner.FailureKind
    }

    /// One shrink in progress: the runs counted against the budget.
    private struct Search {
      /// The seed of the random schedules tried per candidate ("SHRINK" in ASCII).
      static let candidateSeed: UInt64 = 0x5348_5249_4E4B

      let shrinker: ScenarioShrinker
      var kept = ""
      var runs = 0

      init(shrinker: ScenarioShrinker) {
        self.shrinker = shrinker
      }

      var budgetReached: Bool { runs >= shrinker.runBudget }

      mutating func check(
        _ scenario: Scenario, _ strategy: some ScheduleStrategy & Sendable
      ) -> (RunResult, ScenarioRunner.FailureKind?) {
        runs += shrinker.options.checkDeterminism ? 2 : 1
        return ScenarioRunner.check(scenario, strategy: strategy, options: shrinker.options)
      }

      /// The failing case `scenario` makes under one of the schedules tried, or nil.
      mutating func failingCase(_ scenario: Scenario, hint: Schedule) -> Case? {
        func attempt(_ strategy: some ScheduleStrategy & Sendable, _ search: inout Search) -> Case? {
          let (run, failure) = search.check(scenario, strategy)
          guard let failure, failure.includes(search.kept) else { return nil }
          return Case(scenario: scenario, schedule: run.schedule.trimmed, failure: failure)
        }
        if let found = attempt(ReplayStrategy(hint), &self) { return found }
        if !hint.choices.isEmpty, let found = attempt(ReplayStrategy(Schedule(choices: [])), &self) { return found }
        for index in 0..<shrinker.schedulesPerCandidate where !budgetReached {
          if let found = attempt(
            SeededRandomStrategy(seed: ScheduleSeries.scheduleSeed(Self.candidateSeed, index)), &self)
          {
            return found
          }
        }
        return nil
      }

      /// Applies reductions while one keeps failing; true when the scenario shrank. After a
      /// success the next candidates are tried from the same position, so one pass costs about
      /// one run per candidate rather than one per candidate and success.
      mutating func shrinkScenario(_ current: inout Case) -> Bool {
        var shrank = false
        var position = 0
        var candidates = ScenarioReductions.candidates(of: current.scenario)
        while position < candidates.count && !budgetReached {
          if let smaller = failingCase(candidates[position], hint: current.schedule) {
            current = smaller
            shrank = true
            candidates = ScenarioReductions.candidates(of: current.scenario)
          } else {
            position += 1
          }
        }
        return shrank
      }

      /// Replaces preemptions with the oldest runnable job while the failure holds: halves of
      /// them first, then smaller groups, then one at a time; true when any went.
      mutating func shrinkSchedule(_ current: inout Case) -> Bool {
        var shrank = false
        var group = max(current.schedule.preemptions / 2, 1)
        while group >= 1 && !budgetReached {
          let positions = current.schedule.choices.indices.filter { current.schedule.choices[$0] != 0 }
          var removedAny = false
          var start = 0
          while start < positions.count && !budgetReached {
            var choices = current.schedule.choices
            for position in positions[start..<min(start + group, positions.count)] { choices[position] = 0 }
            let candidate = Schedule(choices: choices)
            let (run, failure) = check(current.scenario, ReplayStrategy(candidate))
            // A replayed choice out of range becomes 0, so a recorded schedule never has more
            // preemptions than the candidate: each success strictly lowers the count.
            if let failure, failure.includes(kept), run.schedule.preemptions < current.schedule.preemptions {
              current = Case(scenario: current.scenario, schedule: run.schedule.trimmed, failure: failure)
              removedAny = true
              shrank = true
              break
            }
            start += group
          }
          if !removedAny { group /= 2 }
        }
        return shrank
      }
    }
  }
#endif
