#if compiler(>=6.3)
  import QueueTestingEngine
  import Testing
  import QueueWorkloads

  @Suite("Series runner", .timeLimit(.minutes(5)), .hangGuard)
  struct SeriesRunnerTests {
    /// Runs a trivial body under `schedule` and fails it when `fails` says so.
    @available(ExecutorHooks 1.0, *)
    static func runTrivially(
      _ schedule: SeriesRunner.ScheduleToRun, fails: Bool
    ) -> (RunResult, ScheduleFailure.Problem?) {
      let result = ControlledExecutor.runBlocking(strategy: schedule.strategy, stepBudget: 1_000) {
        await Task.yield()
      }
      return (result, fails ? .failuresRecorded(1) : nil)
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
  }
#endif
