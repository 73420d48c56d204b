#if compiler(>=6.3)
  import Foundation
  import Testing

  import AsyncQueue

  @testable import QueueTesting

  @Suite("Checking a user's type against a sequential model", .timeLimit(.minutes(5)), .hangGuard)
  struct LinearizabilityCheckTests {
    typealias RacyCheck = LinearizabilityCheck<CounterModel, ReadAwaitWriteCounter>

    /// The failure of the read-await-write counter, as a user reads it: two increments in two
    /// tasks, the table, the model's first disagreement, the interleaving, a rerun line.
    @available(ExecutorHooks 1.0, *)
    @Test func theReadAwaitWriteCounterIsFoundAndExplained() async throws {
      let report = await RacyCheck.counter { ReadAwaitWriteCounter() }.run(environment: [:])
      let failure = try #require(report.failure, "\(report.summary)")
      let message = failure.message(testID: "M.t()")
      #expect(failure.kind == .notLinearizable)
      #expect(failure.scenario.parallel == [[.increment], [.increment]], "\(message)")
      #expect(failure.table == ["task 1          | task 2", "increment() → 1 | increment() → 1"], "\(message)")
      #expect(
        failure.disagreement
          == "The model first disagrees: increment() (task 2) returned 1; after increment() the model returns 2.",
        "\(message)")
      #expect(message.hasPrefix("Not linearizable: "), "\(message)")
      #expect(message.contains("Rerun it alone: QUEUE_TESTING_SCENARIO='1/"), "\(message)")
      #expect(message.hasSuffix("swift test --filter '^M\\.t\\(\\)$'"), "\(message)")
      #expect(message.split(separator: "\n").count <= 40, "\(message)")
    }

    /// The rerun line's environment runs that scenario and schedule alone, and it fails the same
    /// way; against the fixed twin it passes, and the report says the rerun did not fail.
    @available(ExecutorHooks 1.0, *)
    @Test func theRerunLineRunsTheScenarioAndScheduleAlone() async throws {
      let check = RacyCheck.counter { ReadAwaitWriteCounter() }
      var failing = check
      failing.seed = 5
      let failure = try #require(await failing.run(environment: [:]).failure)
      let environment = Dictionary(uniqueKeysWithValues: failure.rerunEnvironment.map { ($0.variable, $0.value) })
      #expect(environment["QUEUE_TESTING_SEED"] == nil, "the check's own seed needs no variable")
      var withSeed = environment
      withSeed["QUEUE_TESTING_SEED"] = "5"
      let rerun = await check.run(environment: withSeed)
      let again = try #require(rerun.failure, "\(rerun.summary)")
      #expect(rerun.scenariosRun == 1 && rerun.schedulesRun == 1)
      #expect(again.table == failure.table)
      #expect(again.scenario.parallel == failure.scenario.parallel)
      let fixedRun = LockedState<LinearizabilityReport<CounterModel.Operation, Int>?>(nil)
      let replayEnvironment = withSeed
      let warnings = try await capturingIssues {
        let report = await LinearizabilityCheck<CounterModel, WriteThenAwaitCounter>.counter {
          WriteThenAwaitCounter()
        }.run(environment: replayEnvironment)
        fixedRun.withLock { $0 = report }
      }
      let fixed = try #require(fixedRun.withLock { $0 })
      #expect(fixed.passed && fixed.schedulesRun == 1, "\(fixed.summary)")
      // The replayed schedule that passed says so, once.
      #expect(warnings.map(\.severity) == [.warning])
      #expect(warnings.first?.text.contains("ran without failing") == true)
      // The scenario alone, without its schedule: its whole series, and the report says it passed.
      withSeed["QUEUE_TESTING_SCHEDULE"] = nil
      let scenarioOnly = await LinearizabilityCheck<CounterModel, WriteThenAwaitCounter>.counter {
        WriteThenAwaitCounter()
      }.run(environment: withSeed)
      #expect(scenarioOnly.passed && scenarioOnly.rerunPassed && scenarioOnly.schedulesRun > 1)
    }

    /// The environment adjusts a check as it adjusts the trait, and says what it expected when
    /// a value is wrong.
    @available(ExecutorHooks 1.0, *)
    @Test func theEnvironmentAdjustsTheCheck() async throws {
      var check = RacyCheck.counter { ReadAwaitWriteCounter() }
      check.scenarios = 3
      let tenfold = try RacyCheck.Settings(environment: ["QUEUE_TESTING_BUDGET": "10x"], check: check)
      #expect(tenfold.scenarios == 30)
      let timed = try RacyCheck.Settings(environment: ["QUEUE_TESTING_BUDGET": "30s"], check: check)
      #expect(timed.seconds == 30)
      let off = try RacyCheck.Settings(environment: ["QUEUE_TESTING_BUDGET": "off"], check: check)
      #expect(off.scheduling.budget == nil && off.scenarios == 3)
      let seeded = try RacyCheck.Settings(environment: ["QUEUE_TESTING_SEED": "9"], check: check)
      #expect(seeded.seed == 9)
      for (variable, value, expected) in [
        ("QUEUE_TESTING_BUDGET", "lots", "expected a factor such as 10x"),
        ("QUEUE_TESTING_SEED", "x", "expected a decimal number"),
        ("QUEUE_TESTING_SCENARIO", "-1", "expected a scenario number (from 1"),
        ("QUEUE_TESTING_SCENARIO", "2/q9", "expected a scenario number (from 1"),
      ] {
        let report = await check.run(environment: [variable: value])
        #expect(report.configurationError?.hasPrefix("\(variable)=\(value): \(expected)") == true, "\(report.summary)")
        #expect(report.scenariosRun == 0)
      }
      let noneByHand = await check.run(environment: ["QUEUE_TESTING_SCENARIO": "0"])
      #expect(noneByHand.configurationError?.contains("scenario 0 is one written by hand") == true)
      let misfit = await check.run(environment: ["QUEUE_TESTING_SCENARIO": "1/p5.0-"])
      #expect(misfit.configurationError?.contains("its edits do not fit scenario 1") == true, "\(misfit.summary)")
    }

    /// A scenario written by hand runs alone, is made small and explained as a drawn one is, and
    /// its rerun line names it as scenario 0.
    @available(ExecutorHooks 1.0, *)
    @Test func aScenarioWrittenByHandRunsAlone() async throws {
      let check = RacyCheck.counter { ReadAwaitWriteCounter() }
      let scenario = OperationScenario<CounterModel.Operation>(
        initial: [.get], parallel: [[.increment, .get], [.increment]])
      let report = await check.run(scenario, environment: [:])
      let failure = try #require(report.failure, "\(report.summary)")
      #expect(report.scenariosRun == 1)
      #expect(failure.scenario.parallel == [[.increment], [.increment]], "\(failure.message())")
      #expect(failure.message().contains("the scenario written by hand; made smaller from 4 operations to 2"))
      let environment = Dictionary(uniqueKeysWithValues: failure.rerunEnvironment.map { ($0.variable, $0.value) })
      #expect(environment["QUEUE_TESTING_SCENARIO"]?.hasPrefix("0/") == true)
      let again = await check.run(scenario, environment: environment)
      #expect(again.failure?.table == failure.table && again.schedulesRun == 1)
    }

    /// Inside a controlled run (under the trait), the check does not start a run of its own: it
    /// records why and returns nil.
    @available(ExecutorHooks 1.0, *)
    @Test func insideAControlledRunItSaysToCallItOutside() async {
      let returned = LockedState<Bool?>(nil)
      let report = await ControlledScheduling(.random(1, seed: 1)).run {
        let report = await expectLinearizable(RacyCheck.counter { ReadAwaitWriteCounter() })
        returned.withLock { $0 = report == nil }
      }
      #expect(returned.withLock { $0 } == true)
      #expect(report.failure?.problem == .failuresRecorded(1))
    }

    /// After a scenario's controlled schedules pass, it runs on real threads too, as many times as
    /// asked; a failure there names the run and has no schedule. (The counter here is wrong only
    /// outside the harness, so that the test does not hang on real threads' timing.)
    @available(ExecutorHooks 1.0, *)
    @Test func realThreadRunsCheckWhatTheHarnessDoesNotSteer() async throws {
      var check = LinearizabilityCheck(
        model: CounterModel(),
        operations: { random in Bool.random(using: &random) ? .increment : .get },
        make: { WriteThenAwaitCounter() },
        perform: { counter, operation in
          let value = operation == .increment ? await counter.increment() : await counter.get()
          return ControlledExecutor.isControlling ? value : value + 100
        })
      #expect(await check.run(environment: [:]).passed, "without real-thread runs, the harness sees no bug")
      check.realThreadRuns = 2
      let report = await check.run(environment: [:])
      let failure = try #require(report.failure, "\(report.summary)")
      #expect(failure.realThreadRun == 1 && failure.schedule == nil && report.scenariosRun == 1)
      #expect(
        failure.message().contains("Found on real threads, in run 1 of the scenario there"), "\(failure.message())")
      let rerun = Dictionary(uniqueKeysWithValues: failure.rerunEnvironment.map { ($0.variable, $0.value) })
      #expect(rerun == ["QUEUE_TESTING_SCENARIO": "1"])
      #expect(await check.run(environment: rerun).failure?.realThreadRun == 1)
    }

    /// A checker past its cap says the run is undecided: it neither passes nor fails it.
    @available(ExecutorHooks 1.0, *)
    @Test func anUndecidedRunIsSaidSo() async {
      var check = LinearizabilityCheck<CounterModel, WriteThenAwaitCounter>.counter { WriteThenAwaitCounter() }
      check.scenarios = 1
      check.maximumStates = 1
      let report = await check.run(environment: [:])
      #expect(report.passed)
      #expect(report.undecided.first?.contains("more than 1 states") == true, "\(report.summary)")
    }
  }
#endif
