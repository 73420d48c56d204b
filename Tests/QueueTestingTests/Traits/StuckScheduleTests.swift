#if compiler(>=6.3)
  import Dispatch
  import Foundation
  import Synchronization
  import QueueTesting
  import Testing
  import QueueWorkloads

  /// `ControlledScheduling.run`, as a plain test calls it, returns when a schedule's job never
  /// does: without a job slice, the failure is the stuck job, named with its semaphore, on the
  /// schedule where the waiter ran first; nothing is reduced (no other run can start meanwhile).
  /// With the default slice, the same body passes, as on real threads, and a semaphore that
  /// nothing signals while its waiter waits is still stuck. Each in a process of its own: the
  /// left-behind job holds the harness of its process.
  @Suite("A stuck schedule fails the series", .timeLimit(.minutes(5)), .hangGuard)
  struct StuckScheduleTests {
    /// What the body that fails after its loop throws.
    struct LoopEnded: Error {}

    @available(ExecutorHooks 1.0, *)
    @Test func aSemaphoreDeadlockFailsTheSeriesAndRunReturns() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let scheduling = ControlledScheduling(
          .random(20, seed: 1), jobTimeLimit: .milliseconds(300), jobSlice: nil)
        let report = await scheduling.run {
          await waitOnASemaphoreAnotherTaskSignals()
        }
        guard let failure = report.failure, case .stuck = failure.problem else {
          print("no stuck failure: \(report)")
          exit(1)
        }
        print("schedule \(failure.scheduleNumber): \(failure.problem.summary)")
        print("reduced: \(failure.reduction != nil)")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("the run got stuck: task "), "\(output)")
      #expect(output.contains("blocked in DispatchSemaphore.wait()"), "\(output)")
      #expect(output.contains("reduced: false"), "\(output)")
    }

    @available(ExecutorHooks 1.0, *)
    @Test func withTheDefaultSliceTheSemaphoreAnotherTaskSignalsPasses() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let scheduling = ControlledScheduling(.random(20, seed: 1), jobTimeLimit: .seconds(20))
        let report = await scheduling.run {
          await waitOnASemaphoreAnotherTaskSignals()
        }
        print("passed: \(report.failure == nil), schedules: \(report.schedulesRun)")
        print("outside: \(report.outsideWork)")
        // A schedule that fails after its run left one-job-at-a-time says where it left, and
        // that its replay is exact only up to there.
        let failing = await ControlledScheduling(.random(3, seed: 1), jobTimeLimit: .seconds(20)).run {
          await loopUntilCancelled()
          throw LoopEnded()
        }
        if let failure = failing.failure { print("failing: \(failure.message())") }
        let deadlock = await ControlledScheduling(.random(5, seed: 1), jobTimeLimit: .milliseconds(500)).run {
          let semaphore = DispatchSemaphore(value: 0)
          let waiter = Task { semaphore.wait() }
          await waiter.value
          semaphore.signal()
        }
        if let failure = deadlock.failure { print("deadlock: \(failure.problem.summary)") }
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("passed: true, schedules: 20"), "\(output)")
      // The waiter runs first on some schedules: those runs went on beside it.
      #expect(output.contains("left one-job-at-a-time at step"), "\(output)")
      #expect(output.contains("deadlock: the run got stuck: task "), "\(output)")
      #expect(output.contains("and no other job of the run started in that time"), "\(output)")
      #expect(output.contains("blocked in DispatchSemaphore.wait()"), "\(output)")
      #expect(
        output.contains("the run left one-job-at-a-time at step ")
          && output.contains("a replay of the schedule is exact only up to that step"), "\(output)")
    }
  }
#endif
