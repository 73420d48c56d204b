#if compiler(>=6.3)
  @testable import QueueTesting
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  @Suite("Coverage", .timeLimit(.minutes(5)), .hangGuard)
  struct TraceCoverageTests {
    @Test func countsDistinctTracesAndRunsSinceTheLastNewOne() {
      var coverage = TraceCoverage()
      #expect(coverage.distinctTraces == 0 && coverage.runsSinceNewTrace == 0)
      for hash: UInt64 in [7, 7, 9, 7, 9, 9] { coverage.record(hash) }
      #expect(coverage.runs == 6)
      #expect(coverage.distinctTraces == 2)
      #expect(coverage.lastNewRun == 3)
      #expect(coverage.runsSinceNewTrace == 3)
    }

    /// A body with one possible interleaving shows one trace however many schedules run; a racy
    /// one shows several, and the report says when the last new one appeared.
    @available(ExecutorHooks 1.0, *)
    @Test func seriesReportsWhatItExplored() {
      let alone = ControlledScheduling(.portfolio(40, seed: 3)).runSeries({ await Task.yield() }, failureCount: nil)
      #expect(alone.schedulesRun == 40)
      #expect(alone.coverage.distinctTraces == 1)
      #expect(alone.coverage.runsSinceNewTrace == 39)
      let racy = ControlledScheduling(.random(40, seed: 3)).runSeries(
        {
          await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 { group.addTask { await Task.yield() } }
          }
        }, failureCount: nil)
      #expect(racy.coverage.distinctTraces > 1)
      #expect(racy.coverage.distinctTraces <= 40)
      #expect(racy.coverage.lastNewRun <= 40)
    }

    /// A failure says how much the series had explored by then.
    @available(ExecutorHooks 1.0, *)
    @Test func failureSaysWhatWasExplored() throws {
      let report = ControlledScheduling(.portfolio(50, seed: 1)).runSeries(
        { if await LeaseBoard.run(checksLease: false) > 1 { throw RanTwice() } }, failureCount: nil)
      let failure = try #require(report.failure)
      #expect(failure.coverage == report.coverage)
      #expect(
        failure.message().contains(
          "Explored: \(report.coverage.distinctTraces) distinct interleaving(s) in \(failure.scheduleNumber) schedule(s)"
        ))
    }

    /// Asked to, a series stops (passing) once that many schedules in a row brought nothing new:
    /// one interleaving stops after 1 + 10 schedules; a body with several runs until its last new
    /// one is 10 schedules old; without the option every schedule runs.
    @available(ExecutorHooks 1.0, *)
    @Test func aSeriesStopsWhenAskedOnceNothingNewComes() {
      let alone = ControlledScheduling(.portfolio(500, seed: 3), stopAfterSchedulesWithoutNewInterleaving: 10)
        .runSeries({ await Task.yield() }, failureCount: nil)
      #expect(alone.schedulesRun == 11)
      #expect(alone.stoppedUnchanged && alone.failure == nil)
      let racyBody: @Sendable () async throws -> Void = {
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<2 { group.addTask { await Task.yield() } }
        }
      }
      let racy = ControlledScheduling(.portfolio(500, seed: 3), stopAfterSchedulesWithoutNewInterleaving: 10)
        .runSeries(racyBody, failureCount: nil)
      #expect(racy.stoppedUnchanged)
      #expect(racy.coverage.distinctTraces > 1)
      #expect(racy.coverage.runsSinceNewTrace == 10)
      #expect(racy.schedulesRun == racy.coverage.lastNewRun + 10)
      let all = ControlledScheduling(.portfolio(60, seed: 3)).runSeries(racyBody, failureCount: nil)
      #expect(all.schedulesRun == 60 && !all.stoppedUnchanged)
    }
  }
#endif
