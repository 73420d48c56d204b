#if compiler(>=6.3)
  import QueueScenarios
  import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// The first generated scenario (from seed 0 on) of at least `minimumSteps` steps that fails
  /// under `implementation`, with its failure.
  @available(ExecutorHooks 1.0, *)
  func firstGeneratedFailure(
    _ implementation: QueueImplementation, minimumSteps: Int, options: ScenarioRunner.Options = .init()
  ) -> (Scenario, ScenarioFailure)? {
    var options = options
    options.implementation = implementation
    for seed in UInt64(0)..<200 {
      var generator = ScenarioGenerator(seed: seed, sizes: .init(queues: 3, callers: 3, items: 8, stepsPerItem: 3))
      let scenario = generator.next(name: "generated-\(seed)")
      guard scenario.stepCount >= minimumSteps else { continue }
      if let failure = ScenarioRunner.run(scenario, options: options).failure { return (scenario, failure) }
    }
    return nil
  }

  @Suite("Scenario shrinker", .timeLimit(.minutes(5)), .hangGuard)
  struct ScenarioShrinkerTests {
    /// A planted bug (FIFO queues that let the next item start at a suspension) found in a large
    /// generated scenario shrinks to a handful of steps; the shrunk case still breaks the same
    /// guarantee on the mutant (through its regression schedule) and passes on the real queues.
    @Test(arguments: [QueueImplementation.fifoReleasesAtSuspension, .taskPerEnqueue, .actorPriorityReorder])
    @available(ExecutorHooks 1.0, *)
    func plantedMutantShrinksToAHandfulOfSteps(_ mutant: QueueImplementation) throws {
      let (scenario, failure) = try #require(firstGeneratedFailure(mutant, minimumSteps: 18))
      let shrinker = ScenarioShrinker(options: .init(implementation: mutant))
      let shrunk = try #require(shrinker.shrink(scenario, schedule: failure.run.schedule))
      print("\(mutant.rawValue): \(shrunk.before) -> \(shrunk.after), \(shrunk.runs) runs, kept \(shrunk.kept)")

      #expect(shrunk.before.steps >= 18)
      // Two items on one queue are what any of these flaws needs.
      #expect(shrunk.after.steps <= 3)
      #expect(shrunk.after.items == 2)
      #expect(shrunk.after.queues == 1)
      #expect(shrunk.after.preemptions <= shrunk.before.preemptions)
      // Choices of a younger job over an older one: a task-per-enqueue item that starts first
      // takes four (its task's first job, its arrival at the actor, then the actor's drain, ahead
      // of the other's).
      #expect(shrunk.after.preemptions <= 4)
      // None of these flaws needs a preemption: the order in which waiting work starts is the bug.
      #expect(shrunk.preemptions.isEmpty, "\(shrunk.preemptions)")
      #expect(shrunk.failure.fails(like: shrunk.keptIdentity))
      #expect(failure.problem.fails(like: shrunk.keptIdentity))

      // The saved form parses back and fails the same guarantee at once, on its saved schedule.
      let reparsed = try ScenarioParser.parse(shrunk.scenario.text, path: "shrunk.scenario")
      #expect(reparsed.regressionSchedules == [shrunk.schedule])
      let onMutant = ScenarioRunner.run(reparsed, options: .init(schedules: 20, implementation: mutant))
      let mutantFailure = try #require(onMutant.failure)
      #expect(mutantFailure.scheduleNumber == 1)
      #expect(mutantFailure.problem.fails(like: shrunk.keptIdentity))
      let onReal = ScenarioRunner.run(reparsed, options: .init(schedules: 300))
      #expect(onReal.failure == nil, "\(onReal.failure?.problem.summary ?? "")")
    }

    @available(ExecutorHooks 1.0, *)
    @Test func sameInputShrinksToTheSameCase() throws {
      let (scenario, failure) = try #require(firstGeneratedFailure(.fifoReleasesAtSuspension, minimumSteps: 18))
      let shrinker = ScenarioShrinker(options: .init(implementation: .fifoReleasesAtSuspension))
      let first = try #require(shrinker.shrink(scenario, schedule: failure.run.schedule))
      let second = try #require(shrinker.shrink(scenario, schedule: failure.run.schedule))
      #expect(first.scenario == second.scenario)
      #expect(first.schedule == second.schedule)
      #expect(first.runs == second.runs)
    }

    @available(ExecutorHooks 1.0, *)
    @Test func aScheduleThatPassesHasNothingToShrink() throws {
      let (scenario, failure) = try #require(firstGeneratedFailure(.fifoReleasesAtSuspension, minimumSteps: 10))
      // The same case on the real queues passes: nothing to shrink.
      let shrinker = ScenarioShrinker(options: .init(implementation: .real))
      #expect(shrinker.shrink(scenario, schedule: failure.run.schedule) == nil)
    }

    /// An outcome failure keeps its outcome: a two-queue wait cycle declared as completing
    /// shrinks to the two waits and still deadlocks.
    @available(ExecutorHooks 1.0, *)
    @Test func outcomeFailureShrinksToTheCycle() throws {
      let text = """
        scenario 1
        outcome completes
        queue a fifo
        queue b fifo
        queue spare actor
        caller c1 task
          enqueue spare s1
          wait a x
        caller c2 task
          work
          wait b y
          enqueue spare s2
        item s1
          yield
          work
        item s2
          suspend
        item x
          work
          wait b x2
        item x2
          yield
        item y
          sleep 5ms
          wait a y2
        item y2
          work
        """
      let scenario = try ScenarioParser.parse(text, path: "cycle.scenario")
      let failure = try #require(ScenarioRunner.run(scenario, options: .init(schedules: 200)).failure)
      #expect(failure.problem.signature == "outcome:deadlocks")
      let shrunk = try #require(ScenarioShrinker().shrink(scenario, schedule: failure.run.schedule))
      print("deadlock: \(shrunk.before) -> \(shrunk.after)")
      #expect(shrunk.kept == "outcome:deadlocks")
      #expect(shrunk.after.items < shrunk.before.items)
      #expect(shrunk.after.steps <= 4)
      #expect(shrunk.scenario.items.allSatisfy { !$0.name.hasPrefix("s") })
      let again = ScenarioRunner.run(shrunk.scenario, options: .init(schedules: 1))
      #expect(again.failure?.problem.signature == "outcome:deadlocks")
    }

    /// A nondeterminism failure (state kept between runs) shrinks while the trace hashes of
    /// two runs of one schedule still differ.
    @available(ExecutorHooks 1.0, *)
    @Test func nondeterminismShrinksAndStaysNondeterministic() throws {
      let options = ScenarioRunner.Options(schedules: 5, implementation: .stateBetweenRuns, checkDeterminism: true)
      let (scenario, failure) = try #require(
        firstGeneratedFailure(.stateBetweenRuns, minimumSteps: 10, options: options))
      #expect(failure.problem.signature == "nondeterminism")
      let shrunk = try #require(ScenarioShrinker(options: options).shrink(scenario, schedule: failure.run.schedule))
      #expect(shrunk.kept == "nondeterminism")
      #expect(shrunk.after.items <= 2)
      #expect(shrunk.after.steps <= 2)
    }
  }
#endif
