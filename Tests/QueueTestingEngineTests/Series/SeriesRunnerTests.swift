#if compiler(>=6.3)
  import AsyncQueue
  @_spi(Strategies) @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  @Suite("Series runner", .timeLimit(.minutes(5)), .hangGuard)
  struct SeriesRunnerTests {
    /// Runs a trivial body under `schedule` and fails it when `fails` says so.
    @available(ExecutorHooks 1.0, *)
    static func runTrivially(
      _ schedule: SeriesRunner.ScheduleToRun, fails: Bool
    ) -> (RunResult, SeriesRunner.Judgement<ScheduleProblem>) {
      let result = ControlledExecutor.runBlocking(strategy: schedule.strategy, stepBudget: 1_000) {
        await Task.yield()
      }
      return (result, SeriesRunner.Judgement<ScheduleProblem>(fails ? .failuresRecorded(1) : nil))
    }

    /// A count that two tasks each read and then write back one more, each a hop onto the
    /// actor: an update is lost when one task is switched away from between its read and its
    /// write, while it could have gone on (one preemption).
    actor RacyCount {
      private(set) var value = 0
      func set(_ newValue: Int) { value = newValue }
    }

    /// Runs the lost update under `schedule`; it fails (recorded at `location`) when an update
    /// was lost.
    @available(ExecutorHooks 1.0, *)
    static func runLostUpdate(
      _ strategy: any ScheduleStrategy & Sendable, location: String = "here"
    ) -> (RunResult, SeriesRunner.Judgement<ScheduleProblem>) {
      let count = RacyCount()
      let result = ControlledExecutor.runBlocking(strategy: strategy, stepBudget: 1_000) {
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<2 {
            group.addTask {
              let read = await count.value
              await count.set(read + 1)
            }
          }
        }
        if await count.value != 2 { TraceRecorder.mark("lost") }
      }
      let lost = result.trace.events.contains { if case .mark("lost") = $0.kind { true } else { false } }
      return (
        result,
        SeriesRunner.Judgement<ScheduleProblem>(lost ? .failuresRecorded(1) : nil, recordedAt: lost ? [location] : [])
      )
    }

    /// A seeded series can run one of its schedules alone (what a fresh process per schedule
    /// runs): the same strategy and seed as in the whole series, numbered as there; a failure
    /// there is that schedule's.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: [ScheduleSeries.random(6, seed: 3), .portfolio(6, seed: 3)])
    func aScheduleRunAloneIsTheSeriesOwn(_ series: ScheduleSeries) {
      func hashes(_ series: ScheduleSeries) -> [UInt64] {
        var found: [UInt64] = []
        series.runSchedules { strategy in
          let (result, _) = Self.runLostUpdate(strategy)
          found.append(result.trace.hash)
          return (result, true)
        }
        return found
      }
      let whole = hashes(series)
      #expect(Set(whole).count > 1, "the series offers more than one interleaving")
      // Random members only: PCT learns the length of its runs from the run before.
      for index in 0..<series.count where series.kind == .random || index % 4 == 0 {
        var alone = series
        alone.onlyIndex = index
        #expect(hashes(alone) == [whole[index]], "schedule \(index + 1)")
      }
      var last = series
      last.onlyIndex = series.count - 1
      var numbers: [Int] = []
      let report = SeriesRunner(last).run { schedule in
        numbers.append(schedule.number)
        return Self.runTrivially(schedule, fails: true)
      }
      #expect(numbers.first == series.count)
      #expect(report.failure?.scheduleNumber == series.count)
      #expect(report.schedulesRun == numbers.count)
    }

    /// Leading schedules run first, numbered from 1, then the series; the first failure stops
    /// the run and is reported with its number and the series.
    @available(ExecutorHooks 1.0, *)
    @Test func leadingSchedulesRunFirstAndAFailureStops() throws {
      let leading = [Schedule(choices: []), Schedule(choices: [])]
      var numbers: [Int] = []
      var replays: [Bool] = []
      let report = SeriesRunner(.random(10, seed: 1), leadingSchedules: leading).run { schedule in
        numbers.append(schedule.number)
        replays.append(schedule.strategy is ReplayStrategy)
        #expect(!schedule.isReductionCandidate)
        return Self.runTrivially(schedule, fails: schedule.number == 4)
      }
      #expect(numbers == [1, 2, 3, 4])
      #expect(replays == [true, true, false, false])
      let failure = try #require(report.failure)
      #expect(failure.scheduleNumber == 4)
      #expect(failure.problem == .failuresRecorded(1))
      #expect(failure.series == .random(10, seed: 1))
      #expect(report.schedulesRun == 4)
      #expect(failure.coverage.runs == 4)
    }

    /// A seeded series learns one length for a run, by one rule, for PCT's change points (in
    /// choices) and its cancellations (in steps) alike: the length of the last run that stayed
    /// unfair to its end; a run that needed the bound on unfairness (a livelock) teaches nothing.
    @available(ExecutorHooks 1.0, *)
    @Test func changePointsAndCancellationsLearnOneLengthFromUnfairRuns() {
      var expected: [(steps: Int, choices: Int)] = []
      var learned: [(steps: Int, choices: Int, fair: Bool)] = []
      _ = SeriesRunner(.pct(30, depth: 1, seed: 7), cancelling: .named("nobody")).run {
        (schedule) -> (RunResult, SeriesRunner.Judgement<ScheduleProblem>) in
        let strategy = schedule.strategy as? CancellingStrategy<PCTStrategy>
        expected.append((strategy?.expectedSteps ?? -1, strategy?.base.expectedSteps ?? -1))
        let result = ControlledExecutor.runBlocking(
          strategy: schedule.strategy, stepBudget: 100_000, cancelling: schedule.cancelling,
          FairExplorationTests.pingPong)
        learned.append((result.steps, result.schedule.choices.count, result.fairFromChoice != nil))
        return (result, SeriesRunner.Judgement<ScheduleProblem>(nil))
      }
      #expect(expected.count == 30)
      #expect(expected.first.map { $0.steps == 100 && $0.choices == 100 } == true)
      var afterAFairRun = 0
      for index in 1..<min(expected.count, learned.count) {
        let before = learned[index - 1]
        if before.fair {
          afterAFairRun += 1
          #expect(expected[index].steps == expected[index - 1].steps, "schedule \(index + 1)")
          #expect(expected[index].choices == expected[index - 1].choices, "schedule \(index + 1)")
        } else {
          #expect(expected[index].steps == before.steps, "schedule \(index + 1)")
          #expect(expected[index].choices == before.choices, "schedule \(index + 1)")
        }
      }
      // Some seeds rank the stopping task last: those runs needed the bound.
      #expect(afterAFairRun > 0)
    }

    /// A failing leading schedule stops the run before the series; a passing series runs in
    /// full, and an exhaustive one answers whether it was exhausted.
    @available(ExecutorHooks 1.0, *)
    @Test func aFailingLeadingScheduleStopsBeforeTheSeries() {
      let stopped = SeriesRunner(.random(10), leadingSchedules: [Schedule(choices: [])]).run {
        Self.runTrivially($0, fails: true)
      }
      #expect(stopped.schedulesRun == 1)
      #expect(stopped.failure?.scheduleNumber == 1)
      #expect(stopped.exhausted == nil)
      let passing = SeriesRunner(.random(7)).run { Self.runTrivially($0, fails: false) }
      #expect(passing.schedulesRun == 7)
      #expect(passing.failure == nil)
      let exhaustive = SeriesRunner(.exhaustive(delayBound: 2, budget: 50)).run { Self.runTrivially($0, fails: false) }
      #expect(exhaustive.exhausted == true)
    }

    /// With a limit, the series stops, passing, once that many schedules in a row found no new
    /// interleaving.
    @available(ExecutorHooks 1.0, *)
    @Test func stopsWhenNoNewInterleavingComes() {
      let report = SeriesRunner(.random(100), stopAfterSchedulesWithoutNewInterleaving: 5).run {
        Self.runTrivially($0, fails: false)
      }
      #expect(report.stoppedUnchanged)
      #expect(report.schedulesRun == 6)
      #expect(report.failure == nil)
    }

    /// With a reducer, the runner reduces the failing schedule: its candidates carry the failing
    /// schedule's number, and the report's run is the reduced one, which its schedule replays.
    @available(ExecutorHooks 1.0, *)
    @Test func theFailingScheduleIsReducedByTheRunner() throws {
      var candidates = 0
      var failingNumber = 0
      let report = SeriesRunner(.random(100, seed: 1), reducing: ScheduleReducer()).run { schedule in
        if schedule.isReductionCandidate {
          candidates += 1
          #expect(schedule.number == failingNumber)
        } else {
          failingNumber = schedule.number
        }
        return Self.runLostUpdate(schedule.strategy)
      }
      let failure = try #require(report.failure)
      let reduction = try #require(failure.reduction)
      #expect(reduction.originalPreemptions > 1, "nothing to reduce")
      #expect(reduction.preemptions.count == 1, "\(reduction.preemptions)")
      #expect(reduction.runs == candidates)
      #expect(report.schedulesRun == failure.scheduleNumber)
      // The reported run is what its schedule replays.
      let again = Self.runLostUpdate(ReplayStrategy(failure.run.schedule))
      #expect(again.0.trace.hash == failure.run.trace.hash)
      #expect(again.1.problem == failure.problem)
    }

    /// A candidate fails the same way only if it fails where the failing schedule did: one that
    /// records its failure elsewhere is not kept, and the failure is reported as found.
    @available(ExecutorHooks 1.0, *)
    @Test func aCandidateFailingElsewhereIsNotKept() throws {
      let report = SeriesRunner(.random(100, seed: 1), reducing: ScheduleReducer()).run { schedule in
        Self.runLostUpdate(schedule.strategy, location: schedule.isReductionCandidate ? "elsewhere" : "here")
      }
      let failure = try #require(report.failure)
      #expect(failure.reduction == nil)
      #expect(failure.run.schedule.choices.count > 0)
      #expect(
        ScheduleProblem.failuresRecorded(1).identity(recordedAt: ["here"])
          != ScheduleProblem.failuresRecorded(1).identity(recordedAt: ["elsewhere"]))
      #expect(
        ScheduleProblem.failuresRecorded(1).identity(recordedAt: ["here"])
          == ScheduleProblem.failuresRecorded(3).identity(recordedAt: ["here"]))
    }

    /// A replay is not reduced (it reports the schedule given), nor a failure after which no
    /// other run may start, nor a series the body ended without failing.
    @available(ExecutorHooks 1.0, *)
    @Test func whatTheRunnerDoesNotReduce() throws {
      let found = try #require(
        SeriesRunner(.random(100, seed: 1)).run { Self.runLostUpdate($0.strategy) }.failure)
      var candidates = 0
      let replayed = SeriesRunner(.replay(found.run.schedule), reducing: ScheduleReducer()).run { schedule in
        if schedule.isReductionCandidate { candidates += 1 }
        return Self.runLostUpdate(schedule.strategy)
      }
      #expect(replayed.failure != nil)
      #expect(replayed.failure?.reduction == nil)
      let hooked = SeriesRunner(.random(10), reducing: ScheduleReducer()).run { schedule in
        if schedule.isReductionCandidate { candidates += 1 }
        return (
          Self.runTrivially(schedule, fails: false).0,
          SeriesRunner.Judgement<ScheduleProblem>(.foreignExecutorHook("a hook"))
        )
      }
      #expect(hooked.failure?.problem == .foreignExecutorHook("a hook"))
      let ended = SeriesRunner(.random(10), reducing: ScheduleReducer()).run { schedule in
        if schedule.isReductionCandidate { candidates += 1 }
        return (
          Self.runTrivially(schedule, fails: false).0,
          SeriesRunner.Judgement<ScheduleProblem>(nil, endsSeries: schedule.number == 3)
        )
      }
      #expect(ended.failure == nil)
      #expect(ended.schedulesRun == 3)
      #expect(candidates == 0)
    }
  }
#endif
