#if compiler(>=6.3)
  import AsyncQueue
  import QueueTestingEngine
  import QueueWorkloads
  import Testing

  @Suite("PCTStrategy", .serialized)
  struct PCTStrategyTests {
    /// The task-per-call counterexample (100 `Task {}` into an actor) under PCT: deterministic per seed,
    /// caught within the first few seeds, with the run's n, k and bound reported.
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    @Test func findsTheTaskPerCallCounterexampleAndReportsItsBound() async {
      let outOfOrder = Box(0)
      let body: @Sendable () async -> Void = {
        let count = await naiveTaskPerCallViolations()
        outOfOrder.update { $0 = count }
      }
      var caughtAt: UInt64?
      for seed in UInt64(1)...10 {
        let strategy = PCTStrategy(seed: seed, depth: 2, expectedSteps: 300)
        let first = await ControlledExecutor.run(strategy: strategy, body)
        let again = await ControlledExecutor.run(strategy: strategy, body)
        #expect(first.trace == again.trace, "PCT seed \(seed) must replay")
        #expect(first.outcome == .completed)
        let summary = first.strategySummary ?? ""
        #expect(summary.contains("PCT(depth: 2)") && summary.contains("bound"))
        if outOfOrder.current > 0, caughtAt == nil {
          caughtAt = seed
          print("PCT caught the task-per-call counterexample at seed \(seed): \(summary)")
        }
      }
      #expect(caughtAt != nil)
    }

    /// The FIFO and actor queue versions hold under PCT too.
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    @Test func queuesHoldUnderPCT() async {
      for seed in UInt64(1)...15 {
        let violations = Box(0)
        let result = await ControlledExecutor.run(strategy: PCTStrategy(seed: seed, depth: 3, expectedSteps: 200)) {
          let count = await queueOrderViolations()
          violations.update { $0 = count }
        }
        #expect(result.outcome == .completed, "seed \(seed)")
        #expect(violations.current == 0, "seed \(seed): \(result.schedule)")
      }
    }

    /// With depth 1 there are no change points: the same task keeps running while it can.
    @Test func depthOneIsPlainPriorityScheduling() {
      var strategy = PCTStrategy(seed: 5, depth: 1, expectedSteps: 10)
      let first = strategy.choose(runnableTasks: [1, 2, 3])
      let task = [1, 2, 3][first]
      for _ in 0..<20 {
        let index = strategy.choose(runnableTasks: [3, 2, 1])
        #expect([3, 2, 1][index] == task)
      }
    }
  }
#endif
