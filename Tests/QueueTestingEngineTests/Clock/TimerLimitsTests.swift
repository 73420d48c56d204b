#if compiler(>=6.3)
  import Testing

  @testable import QueueTestingEngine
  import QueueWorkloads

  /// Durations and deadlines at the edge of virtual time saturate: nothing traps, a deadline past
  /// the end of virtual time never comes, and a cancelled sleep wakes.
  @Suite("Timer limits", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct TimerLimitsTests {
    @available(ExecutorHooks 1.0, *)
    @Test func deadlinesRoundUpAndSaturateAtNever() {
      #expect(TimerQueue.deadline(after: 0, from: 0) == 0)
      #expect(TimerQueue.deadline(after: 1, from: 0) == 1_000_000)
      #expect(TimerQueue.deadline(after: 1_000_000, from: 5_000_000) == 6_000_000)
      #expect(TimerQueue.deadline(after: .max, from: 0) == TimerQueue.never)
      #expect(TimerQueue.deadline(after: .max - 1_000_000, from: 0) == 18_446_744_073_709_000_000)
      #expect(TimerQueue.deadline(after: 18_446_744_073_709_000_001, from: 0) == TimerQueue.never)
      #expect(TimerQueue.deadline(after: 2_000_000, from: .max - 1_000_000) == TimerQueue.never)
      // The last representable instant before the end is still a time.
      let last = UInt64.max / 1_000_000 * 1_000_000
      #expect(TimerQueue.deadline(after: last, from: 0) == last)
    }

    /// The "sleep until cancelled" idiom: a sleep of `.max` nanoseconds, then cancelled.
    @available(ExecutorHooks 1.0, *)
    @Test func aCancelledEndlessSleepWakes() {
      let result = ControlledExecutor.runBlocking(seed: 1) {
        let sleeper = Task {
          do {
            try await Task.sleep(nanoseconds: .max)
            TraceRecorder.mark("slept to the end")
          } catch {
            TraceRecorder.mark("cancelled")
          }
        }
        await Task.yield()
        sleeper.cancel()
        await sleeper.value
      }
      #expect(result.outcome == .completed)
      #expect(HopSchedulingTests.leavesMark(result, "cancelled"))
    }

    /// A sleep longer than virtual time can hold never ends (it does not wrap around and finish
    /// before a short one); nothing else runnable and nothing to cancel it is a stuck run.
    @available(ExecutorHooks 1.0, *)
    @Test func aSleepPastTheEndOfVirtualTimeNeverEnds() {
      let result = ControlledExecutor.runBlocking(seed: 1, outsideWorkTimeout: .zero) {
        let long = Task {
          try? await Task.sleep(for: .seconds(18_446_744_074))
          TraceRecorder.mark("long sleep ended")
        }
        let short = Task {
          try? await Task.sleep(for: .seconds(1))
          TraceRecorder.mark("short sleep ended")
        }
        await short.value
        long.cancel()
        await long.value
      }
      #expect(result.outcome == .completed)
      let marks = result.trace.events.compactMap { if case .mark(let label) = $0.kind { label } else { nil } }
      #expect(marks == ["short sleep ended", "long sleep ended"])
      #expect(result.virtualTime == 1_000_000_000)

      let stuck = ControlledExecutor.runBlocking(seed: 1, outsideWorkTimeout: .zero) {
        try? await Task.sleep(nanoseconds: .max)
      }
      guard case .deadlocked(let report) = stuck.outcome else {
        Issue.record("expected a stuck run, got \(stuck.outcome)")
        return
      }
      #expect(report.timersThatNeverFire == 1)
      #expect(report.description.contains("1 timer(s) set past the end of virtual time never fire"))
    }
  }
#endif
