#if compiler(>=6.3)
  import AsyncQueue
  @_spi(Strategies) @testable import QueueTestingEngine
  import QueueWorkloads
  import Testing

  @Suite("PCTStrategy", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct PCTStrategyTests {
    /// The task-per-call counterexample (100 `Task {}` into an actor) under PCT: deterministic per seed,
    /// caught within the first few seeds, with the run's n, k and bound reported.
    @available(ExecutorHooks 1.0, *)
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
    @available(ExecutorHooks 1.0, *)
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
      var ready = ReadyQueueModel()
      for task in [1, 2, 3] { ready.append(task: task) }
      let task = ready.task(at: ready.choose(&strategy))
      for _ in 0..<20 {
        // The chosen task's job runs and it comes back; the others wait.
        ready.removeJob(ofTask: task)
        ready.append(task: task)
        #expect(ready.task(at: ready.choose(&strategy)) == task)
      }
    }

    /// The heap finds what a scan of every runnable job finds: the same choices as plain PCT
    /// (priorities in the order tasks are first seen, the oldest job among equals, demotions at
    /// the change points), over random evolutions of the ready list and its compactions.
    @Test(arguments: 0..<40)
    func choosesWhatAScanOfEveryJobChooses(seed: UInt64) {
      var dice = SplitMix64(seed: seed)
      let expectedSteps = 200
      var strategy = PCTStrategy(seed: seed, depth: 3, expectedSteps: expectedSteps)
      var reference = ScanningPCT(seed: seed, depth: 3, expectedSteps: expectedSteps)
      var ready = ReadyQueueModel()
      var nextTask = 1
      for _ in 0..<600 {
        // New jobs: a new task, a known task that has no runnable job, or a job of no task.
        for _ in 0..<Int(dice.next() % 3) {
          switch dice.next() % 4 {
          case 0:
            ready.append(task: nextTask)
            nextTask += 1
          case 1: ready.append(task: 0)
          default:
            let task = Int(dice.next() % UInt64(nextTask))
            if task != 0, !ready.tasks.contains(task) { ready.append(task: task) }
          }
        }
        guard ready.tasks.count >= 2 else {
          if ready.tasks.count == 1 { _ = ready.remove(at: 0) }
          continue
        }
        let index = ready.choose(&strategy)
        #expect(index == reference.choose(ready.tasks), "seed \(seed)")
        _ = ready.remove(at: index)
      }
    }

    /// A task that yields goes below every other: the job that would end its loop runs next,
    /// whatever the priorities.
    @Test(arguments: 0..<20)
    func aYieldingTaskGoesLast(seed: UInt64) {
      var strategy = PCTStrategy(seed: seed, depth: 1, expectedSteps: 10)
      var ready = ReadyQueueModel()
      ready.append(task: 1)
      ready.append(task: 2)
      let first = ready.task(at: ready.choose(&strategy))
      let other = first == 1 ? 2 : 1
      // The first task yields: its yield job (of no task) becomes runnable.
      ready.removeJob(ofTask: first)
      ready.append(task: 0, yieldingTask: first)
      #expect(ready.task(at: ready.choose(&strategy)) == other)
      // Its resumption, once the yield job ran, still goes after the other task.
      ready.removeJob(ofTask: other)
      ready.append(task: other)
      _ = ready.remove(at: ready.tasks.firstIndex(of: 0)!)
      ready.append(task: first)
      #expect(ready.task(at: ready.choose(&strategy)) == other)
    }

    /// Past its unfair choice limit the strategy chooses uniformly and says from which choice.
    @Test func unfairnessIsBounded() {
      var strategy = PCTStrategy(seed: 3, depth: 1, expectedSteps: 10, unfairChoiceLimit: 50)
      var ready = ReadyQueueModel()
      for task in 1...4 { ready.append(task: task) }
      var chosen: [Int] = []
      for _ in 0..<400 {
        let index = ready.choose(&strategy)
        let task = ready.task(at: index)
        chosen.append(task)
        _ = ready.remove(at: index)
        ready.append(task: task)
      }
      #expect(Set(chosen.prefix(50)).count == 1, "plain priority scheduling up to the limit")
      #expect(Set(chosen.dropFirst(50)).count == 4, "every task runs after it")
      #expect(strategy.fairFromChoice == 51)
      #expect(strategy.summary?.contains("uniform choices from choice 51 on") == true)
      #expect(PCTStrategy(seed: 3, expectedSteps: 5_000).unfairChoiceLimit == 20_000)
      #expect(PCTStrategy(seed: 3, expectedSteps: 10).unfairChoiceLimit == 10_000)
    }
  }

  /// A ready list as a run keeps it, for strategies' tests: jobs are appended as they become
  /// runnable and removed when chosen, through the run's own ``ReadyQueue``.
  struct ReadyQueueModel {
    private(set) var queue = ReadyQueue(capacity: 8)
    private(set) var tasks: [Int] = []
    private var jobs = 0

    mutating func append(task: Int, yieldingTask: Int = 0) {
      jobs += 1
      queue.append(HeldJob(job: StandInJob.make(jobs), task: task, source: .global), yieldingTask: yieldingTask)
      tasks.append(task)
    }

    mutating func remove(at index: Int) -> Int {
      tasks.remove(at: index)
      return queue.remove(at: index).held.task
    }

    mutating func removeJob(ofTask task: Int) {
      _ = remove(at: tasks.firstIndex(of: task)!)
    }

    func task(at index: Int) -> Int { tasks[index] }

    func choose<Strategy: ScheduleStrategy>(_ strategy: inout Strategy) -> Int {
      strategy.choose(from: RunnableJobs(queue), context: ChoiceContext(step: 0, previousTask: 0))
    }
  }

  /// Plain PCT as a scan of every runnable job at every step: the reference ``PCTStrategy``'s heap
  /// must agree with.
  struct ScanningPCT {
    let depth: Int
    private var generator: SplitMix64
    private var priorities: [Int: Int] = [:]
    private var changePoints: [Int]
    private var demotions = 0
    private var step = 0

    init(seed: UInt64, depth: Int, expectedSteps: Int) {
      self.depth = depth
      var generator = SplitMix64(seed: seed)
      changePoints = (0..<(depth - 1)).map { _ in Int(generator.next() % UInt64(expectedSteps)) + 1 }.sorted()
      self.generator = generator
    }

    mutating func choose(_ tasks: [Int]) -> Int {
      step += 1
      for task in tasks where priorities[task] == nil {
        priorities[task] = depth + Int(truncatingIfNeeded: generator.next() >> 2)
      }
      var best = highest(tasks)
      if demotions < changePoints.count, changePoints[demotions] == step {
        demotions += 1
        priorities[tasks[best]] = Int.min + 1 + depth - demotions
        best = highest(tasks)
      }
      return best
    }

    private func highest(_ tasks: [Int]) -> Int {
      var bestIndex = 0
      for (index, task) in tasks.enumerated() where priorities[task]! > priorities[tasks[bestIndex]]! {
        bestIndex = index
      }
      return bestIndex
    }
  }
#endif
