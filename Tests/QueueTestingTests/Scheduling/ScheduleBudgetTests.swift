#if compiler(>=6.3)
  @testable import QueueTesting
  @testable import QueueTestingEngine
  import Dispatch
  import Testing
  import QueueWorkloads

  /// The default series stops where more schedules would no longer learn anything, counting only
  /// the runs' own numbers, so the same seed runs the same schedules.
  @Suite("The default series' budget", .timeLimit(.minutes(5)), .hangGuard)
  struct ScheduleBudgetTests {
    static let budget = ScheduleBudget(steps: 1_000, schedulesWithoutNewInterleaving: 5, minimumSchedules: 4)

    /// The rules, on their own: no choice stops at once; patience and steps only after the
    /// minimum; paced virtual time costs steps only for a run that waited for outside work.
    @Test func theRulesInOrder() {
      var coverage = TraceCoverage()
      coverage.record(1)
      var spending = ScheduleBudgetSpending(Self.budget)
      #expect(
        spending.record(
          steps: 10, virtualTime: 0, waitedForOutsideWork: false, hadChoice: false, dependsOnOutsideTiming: false,
          coverage: coverage,
          elapsedSeconds: 0) == .noSchedulingChoice)

      spending = ScheduleBudgetSpending(Self.budget)
      var stops: [SeriesStop?] = []
      for run in 1...8 {
        coverage = TraceCoverage()
        for hash in 0..<run { coverage.record(hash == 0 ? 1 : 2) }
        stops.append(
          spending.record(
            steps: 10, virtualTime: 0, waitedForOutsideWork: false, hadChoice: true, dependsOnOutsideTiming: false,
            coverage: coverage,
            elapsedSeconds: 0))
      }
      // The second run was the last new one: five runs later, at the seventh, the series stops.
      let patience: [SeriesStop?] = [.noNewInterleaving(schedules: 5), .noNewInterleaving(schedules: 6)]
      #expect(stops == [nil, nil, nil, nil, nil, nil] + patience)

      spending = ScheduleBudgetSpending(Self.budget)
      #expect(spending.cost(steps: 100, virtualTime: 50_000_000, waitedForOutsideWork: false) == 100)
      #expect(spending.cost(steps: 100, virtualTime: 50_000_000, waitedForOutsideWork: true) == 1_100)
      var fresh = TraceCoverage()
      var spent: [SeriesStop?] = []
      for run in 1...4 {
        fresh.record(UInt64(run))
        spent.append(
          spending.record(
            steps: 400, virtualTime: 0, waitedForOutsideWork: false, hadChoice: true, dependsOnOutsideTiming: false,
            coverage: fresh,
            elapsedSeconds: 0))
      }
      // 1,200 steps after three runs, but the minimum is four.
      #expect(spent == [nil, nil, nil, .stepBudget(spent: 1_600, budget: 1_000)])

      // Runs with no choice that waited for outside work differ only by its timing: the series
      // stops after the minimum, not at once; one choice in any run keeps it going.
      for choiceAt in [nil, 2] as [Int?] {
        spending = ScheduleBudgetSpending(Self.budget)
        var outside = TraceCoverage()
        var stops: [SeriesStop?] = []
        for run in 1...4 {
          outside.record(UInt64(run))
          stops.append(
            spending.record(
              steps: 5, virtualTime: 0, waitedForOutsideWork: true, hadChoice: run == choiceAt,
              dependsOnOutsideTiming: true, coverage: outside, elapsedSeconds: 0))
        }
        let stop: SeriesStop? = choiceAt == nil ? .noSchedulingChoiceBesideOutsideWork(schedules: 4) : nil
        #expect(stops == [nil, nil, nil, stop])
      }
    }

    /// A body with no scheduling choice runs once under the default; one with a few interleavings
    /// stops once they stop coming; the same seed gives the same series.
    @available(ExecutorHooks 1.0, *)
    @Test func theDefaultStopsWhereItNoLongerLearns() {
      let alone = ControlledScheduling().runSeries({ await Task.yield() }, failureCount: nil)
      #expect(alone.schedulesRun == 1)
      #expect(alone.stop == .noSchedulingChoice)
      #expect(alone.extent.hasPrefix("stopped after 1 schedule(s) (1 distinct interleaving(s)"))

      // A child and its parent that each yield once: a handful of interleavings.
      let racyBody: @Sendable () async throws -> Void = {
        await withTaskGroup(of: Void.self) { group in
          group.addTask { await Task.yield() }
          await Task.yield()
        }
      }
      let racy = ControlledScheduling().runSeries(racyBody, failureCount: nil)
      let again = ControlledScheduling().runSeries(racyBody, failureCount: nil)
      #expect(racy.stop == .noNewInterleaving(schedules: ScheduleBudget.default.schedulesWithoutNewInterleaving))
      #expect(racy.schedulesRun < 100 && racy.coverage.distinctTraces > 1)
      #expect(racy.schedulesRun == again.schedulesRun && racy.coverage == again.coverage)

      // Waiting for a Dispatch queue, with nothing else to choose: the runs differ only by the
      // queue's timing, so the series stops after one turn of the portfolio.
      let waitsForDispatch = ControlledScheduling().runSeries(
        {
          await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume() }
          }
        }, failureCount: nil)
      #expect(waitsForDispatch.stop == .noSchedulingChoiceBesideOutsideWork(schedules: 4), "\(waitsForDispatch.extent)")

      // An explicit series runs every schedule.
      let all = ControlledScheduling(.portfolio(30)).runSeries(racyBody, failureCount: nil)
      #expect(all.schedulesRun == 30 && all.stop == nil)
    }

    /// A long body gets fewer schedules: the steps of its runs spend the budget.
    @available(ExecutorHooks 1.0, *)
    @Test func aLongBodyGetsFewerSchedules() {
      let body: @Sendable () async throws -> Void = {
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<200 { group.addTask { await Task.yield() } }
        }
      }
      let report = ControlledScheduling(budget: ScheduleBudget(steps: 5_000, schedulesWithoutNewInterleaving: 50))
        .runSeries(body, failureCount: nil)
      guard case .stepBudget(let spent, 5_000) = report.stop else {
        Issue.record("stopped: \(String(describing: report.stop))")
        return
      }
      #expect(spent >= 5_000)
      #expect(report.schedulesRun >= 4 && report.schedulesRun < 20)
    }

    /// The budget does not hide a bug the default finds: the lost update of a lease is still
    /// found, within the budget, by the default series.
    @available(ExecutorHooks 1.0, *)
    @Test func theDefaultStillFindsALostUpdate() throws {
      let report = ControlledScheduling().runSeries(
        { if await LeaseBoard.run(checksLease: false) > 1 { throw RanTwice() } }, failureCount: nil)
      #expect(report.failure != nil, "\(report.extent)")
    }

    /// `QUEUE_TESTING_BUDGET` scales the default's budget and count, turns it off, or gives any
    /// series a time; anything else is refused, naming the variable and what was expected.
    @Test func theEnvironmentChangesTheBudget() throws {
      let base = ControlledScheduling()
      let tenfold = try base.resolved(environment: ["QUEUE_TESTING_BUDGET": "10x"])
      #expect(tenfold.budget == ScheduleBudget.default.scaled(by: 10))
      #expect(tenfold.series.count == 1_000)
      #expect(try base.resolved(environment: ["QUEUE_TESTING_BUDGET": "off"]).budget == nil)
      let explicit = ControlledScheduling(.random(50))
      #expect(try explicit.resolved(environment: ["QUEUE_TESTING_BUDGET": "10x"]).series.count == 50)
      #expect(try explicit.resolved(environment: ["QUEUE_TESTING_BUDGET": "30s"]).budget?.seconds == 30)
      #expect(
        throws: ControlledSchedulingError(
          message: "QUEUE_TESTING_BUDGET=lots: expected a factor such as 10x, a number of seconds such as 30s, or off")
      ) {
        try base.resolved(environment: ["QUEUE_TESTING_BUDGET": "lots"])
      }
      // Set but empty, as a shell leaves a variable it cleared: the default stands.
      #expect(try base.resolved(environment: ["QUEUE_TESTING_BUDGET": " "]).budget == ScheduleBudget.default)
    }

    /// `QUEUE_TESTING_SUMMARY=on` makes a passing test say, as a warning at the test, how far its
    /// series went and why it stopped; off (the default) it says nothing.
    @available(ExecutorHooks 1.0, *)
    @Test func aPassingSeriesSaysWhyItStoppedWhenAsked() async throws {
      let base = ControlledScheduling()
      #expect(try base.resolved(environment: ["QUEUE_TESTING_SUMMARY": "on"]).summarizesPassingSeries)
      #expect(try !base.resolved(environment: ["QUEUE_TESTING_SUMMARY": ""]).summarizesPassingSeries)
      #expect(throws: ControlledSchedulingError(message: "QUEUE_TESTING_SUMMARY=yes: expected on or off")) {
        try base.resolved(environment: ["QUEUE_TESTING_SUMMARY": "yes"])
      }
      let body: @Sendable () async throws -> Void = {
        let child = Task { await Task.yield() }
        await Task.yield()
        await child.value
      }
      func issues(summarizing: Bool) async throws -> [Issue] {
        var scheduling = try base.resolved(environment: ["QUEUE_TESTING_SUMMARY": summarizing ? "on" : "off"])
        scheduling.reducing = nil
        let resolved = scheduling
        return try await capturingIssues {
          try await ControlledSchedulingTrait.run(
            body, under: resolved, testName: "handOff()", testID: nil, sourceLocation: #_sourceLocation)
        }
      }
      let summary = try await issues(summarizing: true)
      try #require(summary.count == 1, "\(summary.map(\.text))")
      #expect(summary[0].severity == .warning)
      #expect(summary[0].text.contains("handOff() passed under \(base.series): stopped after "), "\(summary[0].text)")
      #expect(summary[0].text.contains("distinct interleaving"), "\(summary[0].text)")
      #expect(try await issues(summarizing: false).isEmpty)
    }
  }
#endif
