#if compiler(>=6.3)
  import AsyncQueue
  import QueueTesting
  import Testing
  import QueueWorkloads

  /// `CompletionQueue` under the controlled executor.
  @Suite("CompletionQueue under controlled schedules", .timeLimit(.minutes(5)), .hangGuard)
  struct CompletionQueueHarnessTests {
    /// Items start in order, one at a time, on the main actor, whenever (and from wherever) the
    /// previous item's finish arrives: at once, from another task, or after a yield.
    @Test(.controlledScheduling(.random(40, seed: 4)))
    func itemsRunOneAtATimeInOrderOnTheMainActor() async {
      let log = OrderRecorder()
      let overlap = Counter()
      let queue = CompletionQueue(name: "prompts")
      for number in 1...6 {
        queue.enqueue { finish in
          MainActor.assertIsolated()
          log.mark("start \(number)")
          let running = MainActor.assumeIsolated {
            ItemsInFlight.count += 1
            return ItemsInFlight.count
          }
          if running > 1 { Task { await overlap.increment() } }
          let end = {
            MainActor.assumeIsolated { ItemsInFlight.count -= 1 }
            finish()
          }
          switch number % 3 {
          case 0: end()  // finishes before its closure returns
          case 1: Task { @MainActor in end() }  // from another task, later
          default:
            Task { @MainActor in
              await Task.yield()
              end()
            }
          }
        }
      }
      await queue.waitUntilFinished()
      expectOrder(log, (1...6).map { "start \($0)" })
      #expect(await overlap.value == 0)
      expectQueueGuarantees()
    }

    /// A second call of the finish callback does nothing but report a diagnostic: the next
    /// item is not started early, and each item still runs once.
    @Test(.controlledScheduling(.random(20, seed: 8)))
    func aSecondFinishIsANoOpWithADiagnostic() async {
      let diagnostics = OrderRecorder()
      let log = OrderRecorder()
      let gate = TestGate("second item may end")
      let queue = CompletionQueue(name: "twice") { message in diagnostics.mark(message) }
      queue.enqueue { finish in
        log.mark("first")
        finish()
        finish()
      }
      queue.enqueue { finish in
        log.mark("second")
        Task {
          await gate.wait()
          log.mark("second ends")
          finish()
        }
      }
      queue.enqueue { finish in
        log.mark("third")
        finish()
      }
      await Task.yield()
      gate.open()
      await queue.waitUntilFinished()
      expectOrder(log, ["first", "second", "second ends", "third"])
      #expect(diagnostics.marks.count == 1)
      #expect(diagnostics.marks.first?.contains("called again") == true)
    }

    /// `pause()` holds back items that have not started while the running one goes on to its
    /// finish; `resume()` lets them start.
    @Test(.controlledScheduling(.random(30, seed: 9)))
    func pauseHoldsBackNewItemsUntilResume() async {
      let log = OrderRecorder()
      let gate = TestGate("first may end")
      let queue = CompletionQueue(name: "paused")
      queue.enqueue { finish in
        log.mark("first")
        Task {
          await gate.wait()
          finish()
          log.mark("first ended")
        }
      }
      queue.pause()
      queue.enqueue { finish in
        log.mark("second")
        finish()
      }
      gate.open()
      // Let everything that can run, run: the second item must still be held.
      for _ in 0..<20 { await Task.yield() }
      #expect(!log.marks.contains("second"))
      #expect(queue.isPaused)
      queue.resume()
      await queue.waitUntilFinished()
      #expect(log.marks.last == "second")
    }

    /// An item whose finish is never called holds the queue forever: the run deadlocks, and the
    /// report names the item and the task waiting behind it.
    @available(ExecutorHooks 1.0, *)
    @Test func deadlockReportNamesTheItemWhoseFinishWasNeverCalled() async throws {
      let result = await ControlledExecutor.run(seed: 2, outsideWorkTimeout: .zero) {
        let queue = CompletionQueue(name: "prompts")
        queue.enqueue { finish in finish() }
        queue.enqueue { _ in }  // forgets to call finish
        queue.enqueue { finish in finish() }
        await queue.waitUntilFinished()
      }
      guard case .deadlocked(let report) = result.outcome else {
        Issue.record("expected a deadlock, got \(result.outcome)")
        return
      }
      #expect(report.itemsAwaitingFinish.map(\.description) == ["prompts#2"])
      #expect(report.itemsNeverStarted.map(\.description) == ["prompts#3", "prompts#4"])
      let text = report.description
      #expect(text.contains("finish never called: prompts#2"))
      #expect(
        text.contains("task 1 (root) waits for prompts#4 to start, behind prompts#2, whose finish was never called"))
    }
  }

  /// Items of the queue under test in flight (only touched on the main actor).
  @MainActor enum ItemsInFlight {
    static var count = 0
  }
#endif
