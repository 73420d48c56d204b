#if compiler(>=6.3)
  import Synchronization
  import Testing

  @_spi(Strategies) @testable import QueueTestingEngine
  import QueueWorkloads

  /// No strategy starves a task forever where real threads never would: a task that loops on
  /// `Task.yield()` until another task acts, and two tasks that wake each other forever until a
  /// third one stops them, both end under every member of the default series.
  final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
  }

  @Suite("Fair exploration", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct FairExplorationTests {
    /// A task polls a flag with `Task.yield()` until a sibling sets it (the shape of a test
    /// clock's "mega yield" and of polling loops).
    static let yieldLoop: @Sendable () async -> Void = {
      let flag = Flag()
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          while !flag.isSet { await Task.yield() }
        }
        group.addTask { flag.set() }
      }
    }

    /// Two tasks hand a number back and forth through two streams, with no yield, until a third
    /// task tells them to stop (the shape of an endless `merge` consumer that another task
    /// cancels).
    static let pingPong: @Sendable () async -> Void = {
      let stop = Flag()
      let (pings, ping) = AsyncStream.makeStream(of: Int.self)
      let (pongs, pong) = AsyncStream.makeStream(of: Int.self)
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          for await value in pings {
            if stop.isSet { break }
            pong.yield(value + 1)
          }
          pong.finish()
        }
        group.addTask {
          ping.yield(0)
          for await value in pongs {
            if stop.isSet { break }
            ping.yield(value + 1)
          }
          ping.finish()
        }
        group.addTask { stop.set() }
      }
    }

    /// Every PCT depth and the portfolio end the yield loop on every schedule, by the yield rule
    /// alone: no run needs the bound on unfair choices.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: [ScheduleSeries.pct(100, depth: 1), .pct(100, depth: 2), .pct(100, depth: 3), .portfolio(100)])
    func aYieldLoopEnds(series: ScheduleSeries) {
      var outcomes: [String: Int] = [:]
      var fairRuns = 0
      series.runSchedules { strategy in
        let result = ControlledExecutor.runBlocking(strategy: strategy, stepBudget: 100_000, Self.yieldLoop)
        outcomes["\(result.outcome)", default: 0] += 1
        if result.fairFromChoice != nil { fairRuns += 1 }
        return (result, true)
      }
      #expect(outcomes == ["completed": 100], "\(series)")
      #expect(fairRuns == 0)
    }

    /// PCT ends the endless hand-off once its unfair choices are spent; with no bound it would
    /// run to the step budget whenever the two tasks outrank the third.
    @available(ExecutorHooks 1.0, *)
    @Test func anEndlessHandOffEndsOnceUnfairnessIsSpent() {
      var fairRuns = 0
      for seed in UInt64(1)...30 {
        let strategy = PCTStrategy(seed: seed, depth: 1, expectedSteps: 50)
        let result = ControlledExecutor.runBlocking(strategy: strategy, stepBudget: 100_000, Self.pingPong)
        #expect(result.outcome == .completed, "seed \(seed)")
        if let fair = result.fairFromChoice {
          fairRuns += 1
          #expect(fair == 10_001)
          #expect(result.strategySummary?.contains("uniform choices from choice 10001 on") == true)
        }
      }
      // Some seeds rank the stopping task below the two others: those runs needed the bound.
      #expect(fairRuns > 0)
      // Without the bound such a seed runs to the budget.
      var unbounded = 0
      for seed in UInt64(1)...30 {
        let strategy = PCTStrategy(seed: seed, depth: 1, expectedSteps: 50, unfairChoiceLimit: .max)
        let result = ControlledExecutor.runBlocking(strategy: strategy, stepBudget: 20_000, Self.pingPong)
        if case .stepBudgetExceeded = result.outcome { unbounded += 1 }
      }
      #expect(unbounded == fairRuns)
    }

    /// A series learns how long runs are only from runs that stayed unfair to the end: after a
    /// run that needed the bound, the next PCT run expects as many steps as before it.
    @available(ExecutorHooks 1.0, *)
    @Test func aSeriesDoesNotLearnFromRunsThatNeededTheBound() {
      var limits: [Int] = []
      ScheduleSeries.pct(30, depth: 1, seed: 7).runSchedules { strategy in
        limits.append((strategy as? PCTStrategy)?.unfairChoiceLimit ?? -1)
        return (ControlledExecutor.runBlocking(strategy: strategy, stepBudget: 100_000, Self.pingPong), true)
      }
      #expect(limits.allSatisfy { $0 == 10_000 }, "\(limits)")
    }
  }
#endif
