#if compiler(>=6.3)
  import QueueScenarios
  import QueueTestingEngine
  import Testing
  import QueueWorkloads

  @Suite("Scenario reductions", .timeLimit(.minutes(5)), .hangGuard)
  struct ScenarioReductionsTests {
    static let text = """
      scenario 1
      queue q fifo
      queue a actor
      queue unused actor
      caller c1 sync
        enqueue q i1
        task a i2 priority high
        cancel i2
      caller c2 task priority low
        wait q i3
        sleep 5ms
      item i1
        suspend
        enqueue a i4
      item i2
        yield
        throw
      item i3
        work
      item i4
        task q i5
      item i5
        sleep 1ms
      """

    /// How deep items are enqueued: 1 for an item a caller enqueues, one more per level.
    static func nesting(_ scenario: Scenario) -> Int {
      var parent: [String: String] = [:]
      for item in scenario.items {
        for step in item.steps { if case .enqueue(_, let child, _, _, _) = step.action { parent[child] = item.name } }
      }
      return scenario.items.reduce(0) { total, item in
        var depth = 1
        var name = item.name
        while let up = parent[name] {
          depth += 1
          name = up
        }
        return total + depth
      }
    }

    /// A measure every reduction must lower: parts, steps, nesting, and how far steps, styles
    /// and priorities are from the plainest.
    static func weight(_ scenario: Scenario) -> Int {
      let steps = scenario.callers.flatMap(\.steps) + scenario.items.flatMap(\.steps)
      let plainness = steps.reduce(0) { total, step in
        switch step.action {
        case .sleep, .suspend: total + 1
        case .enqueue(_, _, let style, let priority, let barrier):
          total + (style == .enqueue ? 0 : 1) + (priority == nil ? 0 : 1) + (barrier ? 1 : 0)
        case .acquire(_, true): total + 1
        default: total
        }
      }
      let callers = scenario.callers.reduce(0) {
        $0 + ($1.context == .task ? 1 : 0) + ($1.priority == nil ? 0 : 1)
      }
      return 1000 * (scenario.queues.count + scenario.callers.count + scenario.items.count + steps.count)
        + 100 * nesting(scenario) + plainness + callers
    }

    @Test func everyCandidateIsValidAndLighter() throws {
      let scenario = try ScenarioParser.parse(Self.text, path: "reductions.scenario")
      let candidates = ScenarioReductions.candidates(of: scenario)
      #expect(candidates.count > 20)
      for candidate in candidates {
        #expect(throws: Never.self) { try ScenarioParser.parse(candidate.text, path: "candidate.scenario") }
        #expect(Self.weight(candidate) < Self.weight(scenario), "\(candidate.text)")
      }
    }

    /// A nested enqueue moves up to whoever enqueues its item, right after that enqueue.
    @Test func nestedEnqueuesAreHoisted() throws {
      let scenario = try ScenarioParser.parse(Self.text, path: "reductions.scenario")
      let candidates = ScenarioReductions.candidates(of: scenario)
      let hoisted = try #require(
        candidates.first { $0.callers[0].steps.map(\.action.text).contains("enqueue a i4") })
      #expect(
        hoisted.callers[0].steps.map(\.action.text) == [
          "enqueue q i1", "enqueue a i4", "task a i2 priority high", "cancel i2",
        ])
      #expect(hoisted.item(named: "i1")?.steps.map(\.action.text) == ["suspend"])
      #expect(hoisted.stepCount == scenario.stepCount)
    }

    /// Removing an item takes what it enqueues (transitively) and the steps that name them.
    @Test func removingAnItemTakesItsChildrenAndTheirMentions() throws {
      let scenario = try ScenarioParser.parse(Self.text, path: "reductions.scenario")
      let candidates = ScenarioReductions.candidates(of: scenario)
      let withoutI1 = try #require(candidates.first { $0.item(named: "i1") == nil && $0.callers.count == 2 })
      #expect(withoutI1.items.map(\.name) == ["i2", "i3"])
      #expect(!withoutI1.callers[0].steps.contains { $0.action.text.contains("i1") })
      let withoutC1 = try #require(candidates.first { $0.callers.map(\.name) == ["c2"] })
      #expect(withoutC1.items.map(\.name) == ["i3"])
      let withoutI2 = try #require(candidates.first { $0.item(named: "i2") == nil && $0.items.count == 4 })
      #expect(!withoutI2.callers[0].steps.contains { $0.action == .cancel(item: "i2") })
    }

    @Test func canonicalNamesFollowDeclarationOrder() throws {
      let text = """
        scenario 1
        queue zeta fifo
        queue alpha actor
        caller writer task
          enqueue alpha second
          task zeta first
          cancel first
        item first
          wait alpha second-child
        item second
        item second-child
        """
      let renamed = try ScenarioParser.parse(text, path: "names.scenario").renamedCanonically()
      #expect(renamed.queues.map(\.name) == ["q1", "q2"])
      #expect(renamed.callers.map(\.name) == ["c1"])
      #expect(renamed.items.map(\.name) == ["i1", "i2", "i3"])
      #expect(
        renamed.callers[0].steps.map(\.action.text) == ["enqueue q2 i2", "task q1 i1", "cancel i1"])
      #expect(renamed.items[0].steps.map(\.action.text) == ["wait q2 i3"])
      #expect(throws: Never.self) { try ScenarioParser.parse(renamed.text, path: "renamed.scenario") }
    }

    @Test func onlyUnusedQueuesAreRemovedAndEmptyScenariosHaveNoCandidates() throws {
      let scenario = try ScenarioParser.parse(Self.text, path: "reductions.scenario")
      let queueSets = ScenarioReductions.candidates(of: scenario).map { $0.queues.map(\.name) }
      #expect(queueSets.contains(["q", "a"]))
      #expect(!queueSets.contains(["a", "unused"]))
      let empty = try ScenarioParser.parse("scenario 1\n", path: "empty.scenario")
      #expect(ScenarioReductions.candidates(of: empty).isEmpty)
    }
  }

  @Suite("Scenario runner: regression schedules and determinism", .timeLimit(.minutes(5)), .hangGuard)
  struct ScenarioRunnerRegressionTests {
    static let fifo = """
      scenario 1
      queue q fifo
      caller c sync
        enqueue q a
        enqueue q b
      item a
        suspend
      item b
        work
      """

    /// A file's `schedule` lines run first: the failure is found on schedule 1 even when the
    /// series alone would not try that schedule first.
    @available(ExecutorHooks 1.0, *)
    @Test func regressionSchedulesRunFirst() throws {
      var scenario = try ScenarioParser.parse(Self.fifo, path: "fifo.scenario")
      let failing = try #require(
        ScenarioRunner.run(scenario, options: .init(schedules: 200, implementation: .fifoReleasesAtSuspension))
          .failure)
      scenario.regressionSchedules = [failing.run.schedule]
      let report = ScenarioRunner.run(
        scenario, options: .init(schedules: 200, seed: 99, implementation: .fifoReleasesAtSuspension))
      #expect(report.failure?.scheduleNumber == 1)
      #expect(report.failure?.run.schedule == failing.run.schedule)
      let real = ScenarioRunner.run(scenario, options: .init(schedules: 50))
      #expect(real.failure == nil)
      #expect(real.schedulesRun == 51)
    }

    /// `checkDeterminism` catches state kept between runs, which no ordering oracle sees, and
    /// passes the real queues.
    @available(ExecutorHooks 1.0, *)
    @Test func determinismCheckCatchesStateBetweenRuns() throws {
      let scenario = try ScenarioParser.parse(Self.fifo, path: "fifo.scenario")
      let unchecked = ScenarioRunner.run(scenario, options: .init(schedules: 20, implementation: .stateBetweenRuns))
      #expect(unchecked.failure == nil)
      let checked = ScenarioRunner.run(
        scenario, options: .init(schedules: 20, implementation: .stateBetweenRuns, checkDeterminism: true))
      let failure = try #require(checked.failure)
      guard case .nondeterminism(let first, let second) = failure.problem else {
        Issue.record("expected a nondeterminism failure, got \(failure.problem)")
        return
      }
      #expect(first != second)
      #expect(failure.problem.signature == "nondeterminism")
      let real = ScenarioRunner.run(scenario, options: .init(schedules: 50, checkDeterminism: true))
      #expect(real.failure == nil)
    }
  }
#endif
