#if compiler(>=6.3)
  @testable import QueueTesting
  @testable import QueueTestingEngine
  import Testing

  @Suite("Coverage")
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
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
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
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    @Test func failureSaysWhatWasExplored() throws {
      let report = ControlledScheduling(.portfolio(50, seed: 1)).runSeries(
        { if await LeaseBoard.run(checksLease: false) > 1 { throw RanTwice() } }, failureCount: nil)
      let failure = try #require(report.failure)
      #expect(failure.coverage == report.coverage)
      #expect(
        failure.message(testName: nil).contains(
          "Explored: \(report.coverage.distinctTraces) distinct interleaving(s) in \(failure.scheduleNumber) schedule(s)"
        ))
    }
  }
#endif
