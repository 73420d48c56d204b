#if compiler(>=6.3)
  import AsyncQueue
  import QueueTesting
  import Testing
  import QueueWorkloads

  /// `ConcurrentQueue` under the controlled executor.
  @Suite("ConcurrentQueue under controlled schedules", .timeLimit(.minutes(5)), .hangGuard)
  struct ConcurrentQueueHarnessTests {
    /// Items of every form, some barriers, that suspend: never more than the width at once, a
    /// barrier alone, and the queue's start order, under every schedule.
    @Test(.controlledScheduling(.portfolio(60, seed: 11)))
    func theWidthAndTheBarriersHoldUnderEverySchedule() async {
      let queue = ConcurrentQueue(name: "mixed", width: 2)
      let meter = OverlapMeter()
      let barrierRuns = LockedState<Bool>.make(false)
      let alongsideABarrier = LockedState<Int>.make(0)
      let item: @Sendable (Bool) async -> Void = { isBarrier in
        meter.enter()
        if isBarrier { barrierRuns.withLock { $0 = true } }
        for _ in 0..<2 {
          if !isBarrier && barrierRuns.withLock({ $0 }) { alongsideABarrier.withLock { $0 += 1 } }
          await Task.yield()
        }
        if isBarrier { barrierRuns.withLock { $0 = false } }
        meter.leave()
      }
      var tasks: [Task<Void, Never>] = []
      for index in 0..<8 {
        switch index % 4 {
        case 0: queue.enqueue { await item(false) }
        case 1: tasks.append(Task(on: queue) { await item(false) })
        case 2: queue.enqueueBarrier { await item(true) }
        default: tasks.append(Task(barrierOn: queue) { await item(true) })
        }
      }
      await queue.enqueueAndWait { await item(false) }
      for task in tasks { await task.value }
      await queue.enqueueBarrierAndWait {}
      #expect(meter.maximum <= 2)
      #expect(alongsideABarrier.withLock { $0 } == 0)
      expectQueueGuarantees()
    }

    /// The harness runs a concurrent queue's items concurrently: across schedules, items of one
    /// width finish in more than one order (a harness that ran them one after another would
    /// prove nothing about their overlap).
    @available(ExecutorHooks 1.0, *)
    @Test func itemsWithinTheWidthInterleave() {
      var finishOrders: Set<[Int]> = []
      ScheduleSeries.random(40, seed: 3).runSchedules { strategy in
        let log = EventLog<Int>()
        let result = ControlledExecutor.runBlocking(strategy: strategy) {
          let queue = ConcurrentQueue(width: 3)
          for index in 0..<3 {
            queue.enqueue {
              for _ in 0..<index { await Task.yield() }
              await Task.yield()
              log.append(index)
            }
          }
          await queue.enqueueBarrierAndWait {}
        }
        #expect(result.outcome == .completed)
        finishOrders.insert(log.snapshot)
        return (result, true)
      }
      #expect(finishOrders.count > 1, "\(finishOrders)")
      #expect(finishOrders.allSatisfy { $0.sorted() == [0, 1, 2] })
    }

    /// A barrier that waits for a later item of its own queue can never finish: the run reports
    /// a deadlock that names the waiting task and the item it waits for.
    @available(ExecutorHooks 1.0, *)
    @Test func aBarrierWaitingForALaterItemIsADeadlock() {
      let result = ControlledExecutor.runBlocking(seed: 1, outsideWorkTimeout: .zero) {
        let queue = ConcurrentQueue(name: "uploads", width: 4)
        await queue.enqueueBarrierAndWait {
          await queue.enqueueAndWait {}
        }
      }
      guard case .deadlocked(let report) = result.outcome else {
        Issue.record("expected a deadlock, got \(result.outcome)")
        return
      }
      #expect(report.description.contains("uploads#2"), "\(report)")
    }
  }
#endif
