#if compiler(>=6.3)
  import AsyncQueue
  import Foundation

  extension LinearizabilityCheck {
    /// The environment variable a failure's rerun line sets: the scenario's number, then `/` and
    /// the steps that made it small (`3/p1.0-,e`), so that it runs that scenario alone.
    public static var scenarioVariable: String { "QUEUE_TESTING_SCENARIO" }

    /// Runs the check: its scenarios one after another, each under its series of schedules,
    /// stopping at the first that fails, which it then makes small and explains.
    ///
    /// `environment` adjusts it as it adjusts the trait: `QUEUE_TESTING_SEED` replaces the seed,
    /// `QUEUE_TESTING_BUDGET=10x` runs ten times the scenarios (`30s` runs scenarios for 30
    /// seconds, which then depends on the machine; `off` runs every schedule of each series), and
    /// a failure's rerun line (``scenarioVariable`` with `QUEUE_TESTING_SCHEDULE`) runs its
    /// scenario and schedule alone. The calling thread drives each run (see
    /// ``ControlledScheduling/run(_:)``).
    @available(ExecutorHooks 1.0, *)
    public func run(
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> LinearizabilityReport<Model.Operation, Model.Result> {
      var report = LinearizabilityReport<Model.Operation, Model.Result>()
      let settings: Settings
      do {
        settings = try Settings(environment: environment, check: self)
      } catch {
        report.configurationError = error.message
        return report
      }
      let undecided = LockedState<[String]>([])
      if let handWritten, settings.rerun == nil {
        await runHandWritten(handWritten, settings: settings, undecided: undecided, into: &report)
      } else if let rerun = settings.rerun {
        await runAlone(rerun, settings: settings, undecided: undecided, into: &report)
      } else {
        await runScenarios(settings: settings, undecided: undecided, into: &report)
      }
      report.undecided = undecided.withLock { $0 }
      return report
    }

    /// Runs the check's scenarios, stopping at the first that fails.
    @available(ExecutorHooks 1.0, *)
    private func runScenarios(
      settings: Settings, undecided: LockedState<[String]>,
      into report: inout LinearizabilityReport<Model.Operation, Model.Result>
    ) async {
      let started = ContinuousClock.now
      for number in 1...max(settings.scenarios, 1) {
        if let seconds = settings.seconds, (ContinuousClock.now - started).seconds >= seconds {
          report.stoppedByTimeBudget = seconds
          break
        }
        let scenario = self.scenario(number: number, seed: settings.seed)
        let held = await runSeries(scenario, number: number, settings.scheduling, undecided: undecided)
        report.scenariosRun += 1
        report.schedulesRun += held.report.schedulesRun
        if let failure = held.report.failure {
          report.failure = await minimizeAndExplain(scenario, number: number, failure: failure, settings: settings)
          break
        }
        if let failure = await runOnRealThreads(scenario, number: number, settings: settings, undecided: undecided) {
          report.failure = failure
          break
        }
      }
    }

    /// Runs `scenario` ``realThreadRuns`` times on the cooperative pool, outside the harness, and
    /// explains the first run whose history breaks the condition (unminimized: no run there
    /// repeats).
    @available(ExecutorHooks 1.0, *)
    private func runOnRealThreads(
      _ scenario: OperationScenario<Model.Operation>, number: Int, settings: Settings,
      undecided: LockedState<[String]>
    ) async -> LinearizabilityFailure<Model.Operation, Model.Result>? {
      for run in 0..<realThreadRuns {
        let captured = LockedState<OperationHistory<Model.Operation, Model.Result>?>(nil)
        do {
          try await body(scenario, undecided: undecided, capture: captured, partLimit: realThreadPartLimit)()
        } catch {
          return failure(
            .notLinearizable, scenario: scenario, number: number, edits: [], originalCount: scenario.operationCount,
            history: captured.withLock { $0 } ?? OperationHistory(), schedule: nil, realThreadRun: run + 1,
            settings: settings)
        }
      }
      return nil
    }

    /// Runs the scenario written by hand.
    @available(ExecutorHooks 1.0, *)
    private func runHandWritten(
      _ scenario: OperationScenario<Model.Operation>, settings: Settings, undecided: LockedState<[String]>,
      into report: inout LinearizabilityReport<Model.Operation, Model.Result>
    ) async {
      let held = await runSeries(scenario, number: 0, settings.scheduling, undecided: undecided)
      report.scenariosRun = 1
      report.schedulesRun = held.report.schedulesRun
      guard let failure = held.report.failure else { return }
      report.failure = await minimizeAndExplain(scenario, number: 0, failure: failure, settings: settings)
    }

    /// Runs a rerun line's scenario alone (its schedule alone too, when the line gives one).
    @available(ExecutorHooks 1.0, *)
    private func runAlone(
      _ rerun: Settings.Rerun, settings: Settings, undecided: LockedState<[String]>,
      into report: inout LinearizabilityReport<Model.Operation, Model.Result>
    ) async {
      let drawn = rerun.number == 0 ? handWritten : scenario(number: rerun.number, seed: settings.seed)
      guard let drawn else {
        report.configurationError =
          "\(Self.scenarioVariable): scenario 0 is one written by hand; this check runs scenarios drawn at random"
        return
      }
      guard let scenario = ScenarioEdit.apply(rerun.edits, to: drawn, shrink: shrink) else {
        report.configurationError =
          "\(Self.scenarioVariable): its edits do not fit scenario \(rerun.number) of seed \(settings.seed)"
        return
      }
      let held = await runSeries(scenario, number: rerun.number, settings.scheduling, undecided: undecided)
      report.scenariosRun = 1
      report.schedulesRun = held.report.schedulesRun
      guard let failure = held.report.failure else {
        // A replayed schedule that passes says so itself (see `runHoldingIssues`); a scenario
        // rerun without one runs on real threads too, where it may have failed.
        guard !settings.scheduling.series.isReplay else { return }
        report.failure = await runOnRealThreads(
          scenario, number: rerun.number, settings: settings, undecided: undecided)
        report.rerunPassed = report.failure == nil
        return
      }
      report.failure = await explain(
        scenario, number: rerun.number, edits: rerun.edits, originalCount: drawn.operationCount, failure: failure,
        settings: settings)
    }

    /// Runs one scenario you wrote by hand, under its series of schedules, and explains it as
    /// ``run(environment:)`` does when it fails: made small, with a rerun line whose
    /// ``scenarioVariable`` is `0` (this scenario) and the steps that made it small.
    @available(ExecutorHooks 1.0, *)
    public func run(
      _ scenario: OperationScenario<Model.Operation>,
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> LinearizabilityReport<Model.Operation, Model.Result> {
      var check = self
      check.handWritten = scenario
      return await check.run(environment: environment)
    }

    /// Runs `scenario`'s series: its schedules follow from the scenario's seed.
    @available(ExecutorHooks 1.0, *)
    func runSeries(
      _ scenario: OperationScenario<Model.Operation>, number: Int, _ scheduling: ControlledScheduling,
      undecided: LockedState<[String]>? = nil,
      capture: LockedState<OperationHistory<Model.Operation, Model.Result>?>? = nil
    ) async -> ControlledScheduling.HeldSeries {
      var scheduling = scheduling
      scheduling.series.seed = Self.scenarioSeed(scheduling.series.seed, number: number)
      return await scheduling.runHoldingIssues(body(scenario, undecided: undecided, capture: capture))
    }

    /// One run of `scenario`: makes the object, runs the initial part, the parallel part's tasks
    /// and the final part, each until it is over (see ``Quiescence``), and checks the history.
    func body(
      _ scenario: OperationScenario<Model.Operation>, undecided: LockedState<[String]>?,
      capture: LockedState<OperationHistory<Model.Operation, Model.Result>?>?, partLimit: Duration = Quiescence.horizon
    ) -> @Sendable () async throws -> Void {
      let check = self
      return {
        let recorder = HistoryRecorder<Model.Operation, Model.Result>()
        let subject = await check.make()
        func part(_ task: Int, _ operations: [Model.Operation]) -> Task<Void, Never> {
          Task {
            for operation in operations {
              await recorder.record(task: task, operation) { try await check.perform(subject, operation) }
            }
          }
        }
        let tasks = scenario.parallel.count
        if !scenario.initial.isEmpty { await Quiescence.wait(for: [part(tasks, scenario.initial)], limit: partLimit) }
        await Quiescence.wait(for: scenario.parallel.indices.map { part($0, scenario.parallel[$0]) }, limit: partLimit)
        if !scenario.final.isEmpty { await Quiescence.wait(for: [part(tasks + 1, scenario.final)], limit: partLimit) }
        let history = recorder.history
        capture?.withLock { $0 = history }
        switch check.verdict(history) {
        case .linearizable: break
        case .notLinearizable: throw BrokenCondition()
        case .unknown(let reason): undecided?.withLock { $0.append(reason) }
        }
      }
    }

    /// What a run throws when its history breaks the check's condition: one text, so that every
    /// such run fails the same way (the reducer keeps a schedule only if it fails the same way).
    struct BrokenCondition: Error, CustomStringConvertible {
      static var text: String { "the run's history breaks the check's condition" }
      var description: String { Self.text }
    }

    static func brokeTheCondition(_ problem: ScheduleProblem) -> Bool {
      if case .threw(let text) = problem { return text == BrokenCondition.text }
      return false
    }

    /// Makes a failing scenario small, then explains it.
    @available(ExecutorHooks 1.0, *)
    func minimizeAndExplain(
      _ scenario: OperationScenario<Model.Operation>, number: Int, failure: ControlledScheduling.Failure,
      settings: Settings
    ) async -> LinearizabilityFailure<Model.Operation, Model.Result> {
      guard Self.brokeTheCondition(failure.problem) else {
        return await explain(
          scenario, number: number, edits: [], originalCount: scenario.operationCount, failure: failure,
          settings: settings)
      }
      // Candidates need not be reduced: only whether they fail matters. Each runs every schedule
      // of its series, not just the budget's: a smaller scenario has fewer interleavings, and one
      // the budget would miss must not keep an operation in the scenario that is not needed.
      var thorough = settings.scheduling
      thorough.reducing = nil
      thorough.budget = nil
      let minimizer = ScenarioMinimizer<Model.Operation>(maximumAttempts: maximumMinimizationAttempts)
      let (minimal, _, edits) = await minimizer.minimize(
        scenario,
        fails: { candidate in
          let held = await runSeries(candidate, number: number, thorough)
          return held.report.failure.map { Self.brokeTheCondition($0.problem) } ?? false
        }, shrink: shrink)
      let held = await runSeries(minimal, number: number, settings.scheduling)
      return await explain(
        minimal, number: number, edits: edits, originalCount: scenario.operationCount,
        failure: held.report.failure ?? failure, settings: settings)
    }

    /// The failure of `scenario` for a person: its failing schedule replayed once more to get
    /// the history it gave, and that history checked again for where the model disagrees.
    @available(ExecutorHooks 1.0, *)
    func explain(
      _ scenario: OperationScenario<Model.Operation>, number: Int, edits: [ScenarioEdit], originalCount: Int,
      failure: ControlledScheduling.Failure, settings: Settings
    ) async -> LinearizabilityFailure<Model.Operation, Model.Result> {
      var replay = settings.scheduling
      replay.series = .replay(failure.run.schedule)
      replay.reducing = nil
      replay.budget = nil
      let captured = LockedState<OperationHistory<Model.Operation, Model.Result>?>(nil)
      _ = await runSeries(scenario, number: number, replay, capture: captured)
      let kind: LinearizabilityFailure<Model.Operation, Model.Result>.Kind =
        Self.brokeTheCondition(failure.problem)
        ? .notLinearizable : .runFailed(String(failure.problem.summary.split(separator: "\n").first ?? ""))
      return self.failure(
        kind, scenario: scenario, number: number, edits: edits, originalCount: originalCount,
        history: captured.withLock { $0 } ?? OperationHistory(), schedule: failure, realThreadRun: nil,
        settings: settings)
    }

    /// A failure for a person from the history of the run that failed: its table, where the model
    /// first disagrees, its interleaving, and the line that reruns it (the scenario with the
    /// steps that made it small, the seed when the environment changed it, and the schedule when
    /// one replays it).
    func failure(
      _ kind: LinearizabilityFailure<Model.Operation, Model.Result>.Kind,
      scenario: OperationScenario<Model.Operation>, number: Int, edits: [ScenarioEdit], originalCount: Int,
      history: OperationHistory<Model.Operation, Model.Result>, schedule: ControlledScheduling.Failure?,
      realThreadRun: Int?, settings: Settings
    ) -> LinearizabilityFailure<Model.Operation, Model.Result> {
      var disagreement: String?
      if case .notLinearizable(let violation) = verdict(history) {
        disagreement = LinearizabilityFailure.disagreement(
          violation, history: history, model: model, scenario: scenario)
      }
      let steps = edits.isEmpty ? "" : "/" + edits.map(\.description).joined(separator: ",")
      var rerun = [(variable: Self.scenarioVariable, value: "\(number)\(steps)")]
      if settings.seed != seed { rerun.append((ControlledScheduling.seedVariable, "\(settings.seed)")) }
      if let schedule {
        if let file = ScheduleFile.saveIfLong(schedule, stem: "linearizability-scenario-\(number)") {
          rerun.append((ControlledScheduling.scheduleFileVariable, file))
        } else {
          rerun.append((ControlledScheduling.scheduleVariable, "\(schedule.run.schedule)"))
        }
      }
      return LinearizabilityFailure(
        kind: kind, scenario: scenario, scenarioNumber: number, seed: settings.seed,
        originalOperationCount: originalCount, condition: condition, schedule: schedule,
        realThreadRun: realThreadRun, table: LinearizabilityFailure.table(of: scenario, history: history),
        disagreement: disagreement, interleaving: LinearizabilityFailure.interleaving(of: history, scenario: scenario),
        rerunEnvironment: rerun)
    }
  }
#endif
