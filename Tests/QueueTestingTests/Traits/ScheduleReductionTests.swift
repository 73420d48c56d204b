#if compiler(>=6.3)
  import AsyncQueue
  import Foundation
  @testable import QueueTesting
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// A balance two tasks update with a read and a write, each a hop onto the actor.
  actor Balance {
    private(set) var value = 100
    func read() -> Int { value }
    func write(_ newValue: Int) { value = newValue }
  }

  struct LostUpdate: Error {}

  /// The lost update across two task-group children: it needs one child switched away from between
  /// its read and its write, while it could have gone on.
  let lostUpdateBody: @Sendable () async throws -> Void = {
    let balance = Balance()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<2 {
        group.addTask {
          let value = await balance.read()
          await balance.write(value + 10)
        }
      }
    }
    if await balance.value != 120 { throw LostUpdate() }
  }

  /// The lost update between two children, while three more children hop between two other
  /// actors: the failing schedules of a random series switch among all five.
  let lostUpdateAmongNeighboursBody: @Sendable () async throws -> Void = {
    let balance = Balance()
    let left = Log()
    let right = Log()
    await withTaskGroup(of: Void.self) { group in
      for neighbour in 0..<3 {
        group.addTask {
          for _ in 0..<3 {
            await left.append(neighbour)
            await right.append(neighbour)
          }
        }
      }
      for _ in 0..<2 {
        group.addTask {
          let value = await balance.read()
          await balance.write(value + 10)
        }
      }
    }
    if await balance.value != 120 { throw LostUpdate() }
  }

  /// A mailbox that loses a wake-up: a reply that comes before the waiter stored its
  /// continuation is never delivered, and the waiter waits forever.
  actor LossyMailbox {
    private var waiter: CheckedContinuation<Void, Never>?
    func store(_ continuation: CheckedContinuation<Void, Never>) { waiter = continuation }
    func reply() {
      waiter?.resume()
      waiter = nil
    }
  }

  /// The lost wake-up among a few busy neighbours: some schedules deadlock.
  let lostWakeUpBody: @Sendable () async throws -> Void = {
    let mailbox = LossyMailbox()
    let log = Log()
    await withTaskGroup(of: Void.self) { group in
      for neighbour in 0..<2 {
        group.addTask { for _ in 0..<2 { await log.append(neighbour) } }
      }
      group.addTask {
        await withCheckedContinuation { continuation in
          Task { await mailbox.store(continuation) }
        }
      }
      group.addTask { await mailbox.reply() }
    }
  }

  /// Two children each log their id three times, one hop each; the body throws the interleaving it
  /// saw unless it was one child after the other. Every interleaving is its own failure (the
  /// error's text), so a reduction that changed the interleaving would change the failure.
  let interleavingBody: @Sendable () async throws -> Void = {
    let log = Log()
    await withTaskGroup(of: Void.self) { group in
      for child in 1...2 {
        group.addTask {
          for _ in 1...3 { await log.append(child) }
        }
      }
    }
    let order = await log.entries
    if order != [1, 1, 1, 2, 2, 2] && order != [2, 2, 2, 1, 1, 1] {
      throw Interleaved(order: order.map(String.init).joined(separator: ","))
    }
  }

  actor Log {
    private(set) var entries: [Int] = []
    func append(_ entry: Int) { entries.append(entry) }
  }

  struct Interleaved: Error, CustomStringConvertible {
    let order: String
    var description: String { "interleaved \(order)" }
  }

  @Suite("Schedule reduction", .timeLimit(.minutes(5)), .hangGuard)
  struct ScheduleReductionTests {
    /// The lost update reduces to one preemption, from one child to the other, and the reduced
    /// schedule's replay fails the same way.
    @available(ExecutorHooks 1.0, *)
    @Test func aLostUpdateReducesToOnePreemption() throws {
      let report = ControlledScheduling(.random(100, seed: 3), outsideWorkTimeout: .zero)
        .runSeries(lostUpdateBody, failureCount: nil)
      let failure = try #require(report.failure)
      #expect(failure.problem == .threw("LostUpdate()"))
      let reduction = try #require(failure.reduction)
      #expect(reduction.preemptions.count == 1, "\(reduction.preemptions)")
      #expect(reduction.originalPreemptions >= 1)
      let preemption = try #require(reduction.preemptions.first)
      #expect(preemption.from != 1 && preemption.to != 1, "a child is switched away from, for the other")
      #expect(
        failure.message().contains("Preemptions: 1 preemption (step \(preemption.step): "), "\(failure.message())")
      let replay = ControlledScheduling(.replay(failure.run.schedule), outsideWorkTimeout: .zero)
        .runSeries(lostUpdateBody, failureCount: nil)
      #expect(replay.failure?.problem == .threw("LostUpdate()"))
      #expect(replay.failure?.run.trace.hash == failure.run.trace.hash)
    }

    /// Over many series, a reduction never turns a failure into a pass or into another failure:
    /// the reduced schedule, replayed, throws the very interleaving the failing schedule threw, and
    /// has no more preemptions than it.
    @available(ExecutorHooks 1.0, *)
    @Test func aReductionKeepsTheSameFailure() throws {
      var reduced = 0
      var fewer = 0
      for seed in UInt64(1)...25 {
        let report = ControlledScheduling(.random(30, seed: seed), outsideWorkTimeout: .zero)
          .runSeries(interleavingBody, failureCount: nil)
        guard let failure = report.failure else { continue }
        let original = try #require(failure.reduction?.originalSchedule ?? Optional(failure.run.schedule))
        let before = ControlledScheduling(.replay(original), outsideWorkTimeout: .zero)
          .runSeries(interleavingBody, failureCount: nil)
        let after = ControlledScheduling(.replay(failure.run.schedule), outsideWorkTimeout: .zero)
          .runSeries(interleavingBody, failureCount: nil)
        #expect(after.failure?.problem == failure.problem, "seed \(seed)")
        #expect(before.failure?.problem == failure.problem, "seed \(seed)")
        if let reduction = failure.reduction {
          reduced += 1
          #expect(reduction.preemptions.count <= reduction.originalPreemptions, "seed \(seed)")
          // A candidate is kept only with fewer preemptions: with no fewer, the run is the one found.
          if reduction.preemptions.count == reduction.originalPreemptions {
            #expect(failure.run.trace.hash == before.failure?.run.trace.hash, "seed \(seed)")
          }
          if reduction.preemptions.count < reduction.originalPreemptions { fewer += 1 }
        }
      }
      #expect(reduced >= 10, "too few failing series to say anything")
      #expect(fewer >= 1, "no reduction removed a preemption")
    }

    /// A lost update among busy neighbours: a random schedule that finds it switches between
    /// tasks many times, and the one switch it needs can be any of them. Trying each preemption
    /// alone before taking them out one at a time reduces some failures to that one switch that
    /// the one-at-a-time removal leaves at several (without a later switch the run takes a path on
    /// which an earlier one no longer loses the update), and never leaves more. Neither finds the
    /// single switch for every failure: the trait's message says "fewer", not "the fewest".
    @available(ExecutorHooks 1.0, *)
    @Test func tryingEachPreemptionAloneReducesFurther() throws {
      func reducedCounts(_ reducer: ScheduleReducer) -> [Int?] {
        (UInt64(1)...12).map { seed in
          ControlledScheduling(.random(100, seed: seed), outsideWorkTimeout: .zero, reducing: reducer)
            .runSeries(lostUpdateAmongNeighboursBody, failureCount: nil).failure?.reduction?.preemptions.count
        }
      }
      let both = reducedCounts(ScheduleReducer(maxRuns: 200, timeLimit: .seconds(30)))
      let greedyOnly = ScheduleReducer(maxRuns: 200, timeLimit: .seconds(30), triesEachPreemptionAlone: false)
      let greedy = reducedCounts(greedyOnly)
      #expect(both.compactMap { $0 }.count >= 6, "too few failing series to say anything: \(both)")
      #expect(both.map { $0 == nil } == greedy.map { $0 == nil })
      let pairs = zip(both, greedy).compactMap { pair in pair.0.flatMap { one in pair.1.map { (one, $0) } } }
      #expect(pairs.allSatisfy { $0.0 <= $0.1 }, "\(both) against \(greedy)")
      #expect(pairs.contains { $0.0 == 1 && $0.1 > 1 }, "\(both) against \(greedy)")
    }

    /// A deadlock found and reduced reports the reduced run: its report (steps, tasks, last
    /// events) is the one the printed schedule gives again, equal, and so is its trace.
    @available(ExecutorHooks 1.0, *)
    @Test func aReducedDeadlockReportsWhatItsScheduleReplays() throws {
      var checked = 0
      var changedByReduction = 0
      for seed in UInt64(1)...10 {
        let report = ControlledScheduling(.random(100, seed: seed), outsideWorkTimeout: .zero)
          .runSeries(lostWakeUpBody, failureCount: nil)
        guard let failure = report.failure, case .deadlocked = failure.problem, let reduction = failure.reduction
        else { continue }
        checked += 1
        if reduction.originalSchedule != failure.run.schedule { changedByReduction += 1 }
        let replay = ControlledScheduling(.replay(failure.run.schedule), outsideWorkTimeout: .zero)
          .runSeries(lostWakeUpBody, failureCount: nil)
        #expect(replay.failure?.problem == failure.problem, "seed \(seed)")
        #expect(replay.failure?.run.trace.hash == failure.run.trace.hash, "seed \(seed)")
      }
      #expect(checked >= 5, "too few deadlocks to say anything: \(checked)")
      #expect(changedByReduction >= 1, "no reduction changed its run: the check would not bite")
    }

    /// A budget of one run only records the failing schedule, and says the budget ran out; with
    /// reduction off the failure is the series' own schedule, unreduced.
    @available(ExecutorHooks 1.0, *)
    @Test func theBudgetBindsAndReductionCanBeSwitchedOff() throws {
      let tight = ControlledScheduling(
        .random(100, seed: 3), outsideWorkTimeout: .zero, reducing: ScheduleReducer(maxRuns: 1)
      )
      .runSeries(lostUpdateBody, failureCount: nil)
      let tightFailure = try #require(tight.failure)
      let tightReduction = try #require(tightFailure.reduction)
      #expect(tightReduction.budgetExhausted)
      #expect(tightReduction.preemptions.count == tightReduction.originalPreemptions)
      #expect(tightFailure.message().contains("the reduction's budget ran out"))
      let off = ControlledScheduling(.random(100, seed: 3), outsideWorkTimeout: .zero, reducing: nil)
        .runSeries(lostUpdateBody, failureCount: nil)
      let offFailure = try #require(off.failure)
      #expect(offFailure.reduction == nil)
      #expect(offFailure.run.schedule == tightReduction.originalSchedule)
      #expect(!offFailure.message().contains("Preemptions:"))
    }

    /// The picture: a lane for the actor with each task's turns on it in order, one `<g data-task>`
    /// lane per task of the run, every job drawn once, the preemption and the failure marked,
    /// hover text on every job, and nothing loaded from the network.
    @available(ExecutorHooks 1.0, *)
    @Test func theChartHasALanePerTaskAndMarksThePreemption() throws {
      let report = ControlledScheduling(.random(100, seed: 3), outsideWorkTimeout: .zero)
        .runSeries(lostUpdateBody, failureCount: nil)
      var failure = try #require(report.failure)
      failure.failureMarks = [
        TraceChart.FailureMark(step: failure.run.steps, task: 1, text: "balance 110, expected 120")
      ]
      let html = failure.chart.html
      let tasks = Set(failure.run.trace.events.compactMap { if case .ran = $0.kind { $0.task } else { nil } })
      for task in tasks where task != 0 {
        #expect(html.contains("<g data-task=\"\(TraceChart.escape(failure.run.trace.label(ofTask: task)))\""))
      }
      // The two children each read, then write, on the actor: four turns, and the root's read.
      let work = failure.run.actorWork
      #expect(work.actorNames == ["Balance"])
      #expect(html.contains("<g data-actor=\"actor Balance\""))
      #expect(Set(work.turns.map(\.task)) == [1, 2, 3], "\(work.turns)")
      #expect(work.turns.filter { $0.task != 1 }.count == 4, "\(work.turns)")
      #expect(html.contains("in the order they ran: " + work.turns.map { "\($0.task)" }.joined(separator: " · ")))
      // Every job is drawn once: as a block on its task's lane, or as a drain on its actor's.
      let drains = Set(work.turns.map(\.step)).count
      #expect(html.components(separatedBy: "<rect class=\"job\"").count - 1 + drains == failure.run.steps)
      #expect(html.components(separatedBy: "<g class=\"preemption\">").count - 1 == 1)
      #expect(html.contains("<g class=\"failure\">"))
      #expect(
        html.contains("<title>Controlled schedule 1 (random, 100 schedules, seed 3) failed: balance 110, expected 120"))
      #expect(!html.contains("<script"))
      #expect(!html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http"))
    }

    /// Many similar tasks do not drown the picture: past the lane limit, the root and the
    /// tasks a failure names keep lanes, and the rest share one folded lane whose jobs still
    /// name their task.
    @available(ExecutorHooks 1.0, *)
    @Test func manyTasksAreFoldedAndTheFailingOneKeepsItsLane() throws {
      let result = ControlledExecutor.runBlocking(seed: 1) {
        let balance = Balance()
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<30 { group.addTask { await balance.write(await balance.read() + 1) } }
        }
      }
      let chart = TraceChart(
        run: result, title: "thirty writers",
        failures: [TraceChart.FailureMark(step: 5, task: 25, text: "task 25 failed")])
      let svg = chart.svg
      let lanes = svg.components(separatedBy: "<g data-task=\"").count - 1
      #expect(lanes == TraceChart.maximumTaskLanes, "\(lanes)")
      #expect(svg.contains("<g data-task=\"task 25\""))
      #expect(svg.contains("<g data-task=\"task 1 (root)\""))
      #expect(svg.contains("<g data-folded=\"19 more tasks (folded)\""))
      #expect(svg.contains(", task 31: ran on"))
      #expect(result.actorWork.turns.filter { $0.task != 1 }.count == 60, "\(result.actorWork.turns.count)")
    }

    /// Under the trait, a failing `#expect` is reported once, from the failing schedule: the
    /// reduction's runs record nothing; the summary names the preemption.
    @available(ExecutorHooks 1.0, *)
    @Test func underTheTraitTheReductionRecordsNoIssues() async throws {
      let trait = ControlledSchedulingTrait.controlledScheduling(.random(100, seed: 3), outsideWorkTimeout: .zero)
      let test = try #require(Test.current)
      let issues = try await capturingIssues {
        try await ChildProcessIsolation.$runsInPlace.withValue(true) {
          try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let balance = Balance()
            await withTaskGroup(of: Void.self) { group in
              for _ in 0..<2 {
                group.addTask {
                  let value = await balance.read()
                  await balance.write(value + 10)
                }
              }
            }
            #expect(await balance.value == 120)
          }
        }
      }
      try #require(issues.count == 1, "\(issues.map(\.text))")
      #expect(issues[0].text.contains("balance.value == 120"))
      #expect(issues[0].text.contains("Preemptions: 1 preemption"), "\(issues[0].text)")
    }
  }
#endif
