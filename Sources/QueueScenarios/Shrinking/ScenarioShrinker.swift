#if compiler(>=6.3)
  import QueueTestingEngine

  /// Makes a failing scenario and its schedule as small as it can while the same guarantee still
  /// fails: fewer callers, items, queues and steps, plainer steps, and fewer preemptions.
  ///
  /// Deterministic: the same scenario, schedule and settings shrink to the same result. A
  /// reduction of the scenario changes what a schedule's choices mean, so each candidate is run
  /// under the current schedule, then under the schedule that always picks the oldest runnable
  /// job, then under ``schedulesPerCandidate`` seeded random schedules; the first that fails the
  /// same way is kept. Then the schedule's preemptions are taken out, in halves and then one by
  /// one, while the failure holds. Scenario and schedule passes repeat until neither shrinks.
  package struct ScenarioShrinker: Sendable {
    /// A shrunk failure.
    package struct Result: Sendable {
      /// The shrunk scenario; its ``Scenario/regressionSchedules`` hold ``schedule``, so running
      /// it replays the failure first.
      package var scenario: Scenario
      /// The shrunk schedule (trailing zeros trimmed).
      package var schedule: Schedule
      /// The failure the shrunk case still has.
      package var failure: ScenarioProblem
      /// The shrunk case's failing run (its trace is the one to read).
      package var run: RunResult
      /// What was kept failing, for a person (a guarantee's name, `outcome:deadlocks`,
      /// `nondeterminism`, ...; see ``ScenarioProblem/keptDescription``).
      package var kept: String
      /// What was kept failing (see ``ScenarioProblem/keptIdentity``).
      package var keptIdentity: FailureIdentity
      /// The size of the case given.
      package var before: ShrinkSize
      /// The size of the shrunk case.
      package var after: ShrinkSize
      /// Schedules run while shrinking.
      package var runs: Int
      /// Whether the run budget ended the shrink before it reached a fixed point.
      package var budgetReached: Bool
      /// The shrunk run's preemptions (switches away from work that could have gone on; see
      /// ``Preemption``), after a ``ScheduleReducer`` took out every one it could.
      package var preemptions: [Preemption] = []
    }

    /// How each schedule is run and checked (the queue implementation, the step budget, whether
    /// to check determinism). The schedule count and strategy are not used.
    package var options: ScenarioRunner.Options
    /// Seeded random schedules tried for a candidate when neither the current schedule nor the
    /// oldest-first schedule fails it.
    package var schedulesPerCandidate: Int
    /// The most schedules to run in all; past it the smallest case found so far is returned.
    package var runBudget: Int
    /// When shrinking a failure of a deliberately broken implementation (``options`` not on the
    /// real queues): the schedules on the real queues that every kept reduction must pass, its
    /// expected outcome included (its failing schedule, the oldest-first one, then this many
    /// seeded random ones). A reduction can turn a correct scenario into a wrong one (a `wait`
    /// across two queues hoisted into an item that waits on its own FIFO queue deadlocks on any
    /// queue); such a file would "fail" for a reason that is not the bug, and the real queues
    /// too. 0 turns the check off.
    package var truthSchedules: Int

    /// Creates a shrinker.
    package init(
      options: ScenarioRunner.Options = .init(), schedulesPerCandidate: Int = 8, runBudget: Int = 50_000,
      truthSchedules: Int = 16
    ) {
      self.options = options
      self.schedulesPerCandidate = schedulesPerCandidate
      self.runBudget = runBudget
      self.truthSchedules = truthSchedules
    }

    /// Shrinks `scenario`, which fails under `schedule`.
    /// - Returns: nil when `scenario` does not fail under `schedule` (nothing to shrink).
    @available(ExecutorHooks 1.0, *)
    package func shrink(_ scenario: Scenario, schedule: Schedule) -> Result? {
      var scenario = scenario
      scenario.regressionSchedules = []
      let (firstRun, firstFailure) = ScenarioRunner.check(
        scenario, strategy: ReplayStrategy(schedule), options: options)
      guard let firstFailure else { return nil }
      // Keep the first broken guarantee (or the outcome), so the shrunk case fails the same way.
      var search = Search(shrinker: self, kept: firstFailure.keptIdentity)
      search.runs = options.checkDeterminism ? 2 : 1
      var current = Case(scenario: scenario, run: firstRun, failure: firstFailure)
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
      // Last, the harness's own measure: fewer preemptions (switches away from work that
      // could have gone on) that still fail the same way, as the trait reports them.
      var preemptions: [Preemption] = []
      let shrunk = current.scenario
      let options = self.options
      var lastProblem: ScenarioProblem?
      let identity = current.failure.identity(recordedAt: [])
      if let reduced = ScheduleReducer().reduce(
        current.run,
        runAndJudge: { strategy in
          let (run, problem) = ScenarioRunner.check(shrunk, strategy: strategy, options: options)
          lastProblem = problem
          return (run, problem?.identity(recordedAt: []) == identity)
        }), let problem = lastProblem
      {
        // The reducer's last run replayed its result: `problem` is the result's.
        search.runs += reduced.runs
        preemptions = reduced.preemptions
        current = Case(scenario: current.scenario, run: reduced.run, failure: problem)
      }
      current.scenario.name = scenario.name
      current.scenario.path = nil
      current.scenario.regressionSchedules = [current.schedule]
      return Result(
        scenario: current.scenario, schedule: current.schedule, failure: current.failure, run: current.run,
        kept: firstFailure.keptDescription, keptIdentity: search.kept,
        before: before, after: ShrinkSize(current.scenario, current.schedule), runs: search.runs,
        budgetReached: search.budgetReached, preemptions: preemptions)
    }

    /// A failing case.
    private struct Case {
      var scenario: Scenario
      var run: RunResult
      var failure: ScenarioProblem
      /// The run's schedule without trailing zeros.
      var schedule: Schedule

      init(scenario: Scenario, run: RunResult, failure: ScenarioProblem) {
        self.scenario = scenario
        self.run = run
        self.failure = failure
        schedule = run.schedule.trimmed
      }
    }

    /// One shrink in progress: the runs counted against the budget.
    @available(ExecutorHooks 1.0, *)
    private struct Search {
      /// The seed of the random schedules tried per candidate ("SHRINK" in ASCII).
      static let candidateSeed: UInt64 = 0x5348_5249_4E4B

      let shrinker: ScenarioShrinker
      /// What every kept case must still fail (see ``ScenarioProblem/keptIdentity``).
      let kept: FailureIdentity
      var runs = 0

      var budgetReached: Bool { runs >= shrinker.runBudget }

      /// The case `scenario` makes under `strategy` if it fails the kept way; counts the runs.
      mutating func failing(_ scenario: Scenario, under strategy: some ScheduleStrategy & Sendable) -> Case? {
        runs += shrinker.options.checkDeterminism ? 2 : 1
        let (run, failure) = ScenarioRunner.check(scenario, strategy: strategy, options: shrinker.options)
        guard let failure, failure.fails(like: kept) else { return nil }
        return Case(scenario: scenario, run: run, failure: failure)
      }

      /// The failing case `scenario` makes under one of the schedules tried, or nil; also nil
      /// when the case is not true on the real queues (see ``ScenarioShrinker/truthSchedules``).
      mutating func failingCase(_ scenario: Scenario, hint: Schedule) -> Case? {
        guard let found = anyFailingCase(scenario, hint: hint) else { return nil }
        return holdsOnRealQueues(found) ? found : nil
      }

      private mutating func anyFailingCase(_ scenario: Scenario, hint: Schedule) -> Case? {
        if let found = failing(scenario, under: ReplayStrategy(hint)) { return found }
        if !hint.choices.isEmpty, let found = failing(scenario, under: ReplayStrategy(Schedule(choices: []))) {
          return found
        }
        for index in 0..<shrinker.schedulesPerCandidate where !budgetReached {
          let seed = ScheduleSeries.scheduleSeed(Self.candidateSeed, index)
          if let found = failing(scenario, under: SeededRandomStrategy(seed: seed)) { return found }
        }
        return nil
      }

      /// Whether the real queues pass `found`'s scenario (always, when the failure being shrunk
      /// is one of the real queues, or the check is off).
      mutating func holdsOnRealQueues(_ found: Case) -> Bool {
        guard shrinker.options.implementation != .real, shrinker.truthSchedules > 0 else { return true }
        var real = shrinker.options
        real.implementation = .real
        real.checkDeterminism = false
        func passes(_ strategy: some ScheduleStrategy & Sendable) -> Bool {
          runs += 1
          return ScenarioRunner.check(found.scenario, strategy: strategy, options: real).failure == nil
        }
        guard passes(ReplayStrategy(found.schedule)), passes(ReplayStrategy(Schedule(choices: []))) else {
          return false
        }
        for index in 0..<shrinker.truthSchedules {
          let seed = ScheduleSeries.scheduleSeed(Self.truthSeed, index)
          if !passes(SeededRandomStrategy(seed: seed)) { return false }
        }
        return true
      }

      /// The seed of the real-queue schedules a kept case must pass ("TRUTH" in ASCII).
      static let truthSeed: UInt64 = 0x54_5255_5448

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
          let choices = current.schedule.choices
          let positions = choices.indices.filter { choices[$0] != 0 }
          var removedAny = false
          var start = 0
          while start < positions.count && !budgetReached {
            var candidate = choices
            for position in positions[start..<min(start + group, positions.count)] { candidate[position] = 0 }
            // A replayed choice out of range becomes 0, so a recorded schedule never has more
            // preemptions than the candidate: each success strictly lowers the count.
            if let found = failing(current.scenario, under: ReplayStrategy(Schedule(choices: candidate))),
              found.schedule.preemptions < current.schedule.preemptions
            {
              current = found
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
