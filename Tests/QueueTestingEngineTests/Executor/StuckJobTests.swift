#if compiler(>=6.3)
  import Dispatch
  import Foundation
  import Synchronization
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// A run whose job never returns comes back as "stuck" instead of hanging the caller, names the
  /// job and what its thread is blocked in, keeps later runs from starting on the left-behind
  /// thread, and lets them start again once the job returns. Each test runs in a process of its
  /// own (an exit test): a left-behind job holds the harness of its process.
  @Suite("Stuck jobs end the run, not the process", .timeLimit(.minutes(5)), .hangGuard)
  struct StuckJobTests {
    /// A real pool deadlock: a task waits on a semaphore that a later task signals. On real
    /// threads the signal comes from another thread of the pool; in a run, the waiter's job holds
    /// the run's one thread. The run returns within the limit, naming the semaphore; the next run
    /// is refused at once (an earlier run's job); after the semaphore is signalled from outside,
    /// the abandoned job returns and runs start again.
    @available(ExecutorHooks 1.0, *)
    @Test func aSemaphoreDeadlockIsReportedNamingTheSemaphore() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let semaphore = DispatchSemaphore(value: 0)
        // Oldest first: the waiter, created first, runs before the signaller.
        let first = ControlledExecutor.runBlocking(
          strategy: ReplayStrategy(Schedule(choices: [])), jobTimeLimit: .milliseconds(300)
        ) {
          let waiter = Task { semaphore.wait() }
          let signaller = Task { _ = semaphore.signal() }
          await waiter.value
          await signaller.value
        }
        guard case .stuck(let job) = first.outcome else {
          print("first run: \(first.outcome)")
          exit(1)
        }
        print("first: \(job)")
        let refused = ControlledExecutor.runBlocking(seed: 1, jobTimeLimit: .seconds(10)) {}
        guard case .stuck(let earlier) = refused.outcome, earlier.ofEarlierRun else {
          print("second run: \(refused.outcome)")
          exit(2)
        }
        print("second: \(earlier)")
        _ = semaphore.signal()
        // The left-behind job returns now; its run ends there, and the harness is free again.
        for _ in 0..<1_000 {
          let again = ControlledExecutor.runBlocking(seed: 1, jobTimeLimit: .seconds(10)) { await Task.yield() }
          if again.outcome == .completed {
            print("recovered")
            exit(0)
          }
          usleep(10_000)
        }
        exit(3)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(
        output.contains(
          "first: task 2's job started at step 2 did not return within 0.3 s, blocked in DispatchSemaphore.wait() (_dispatch_semaphore_wait_slow)"
        ), "\(output)")
      #expect(output.contains("second: an earlier controlled run's task 2's job"), "\(output)")
      #expect(output.contains("recovered"), "\(output)")
    }

    /// A job that spins until another thread tells it to stop (an upstream that loops until it is
    /// cancelled from elsewhere) is reported with no blocking call, and the run returns.
    @available(ExecutorHooks 1.0, *)
    @Test func aSpinningJobIsReportedAndTheRunReturns() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let stop = Atomic<Bool>(false)
        let result = ControlledExecutor.runBlocking(seed: 1, jobTimeLimit: .milliseconds(300)) {
          while !stop.load(ordering: .relaxed) {}
        }
        guard case .stuck(let job) = result.outcome else { exit(1) }
        print("spun: \(job)")
        stop.store(true, ordering: .relaxed)
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(
        output.contains(
          "spun: task 1's job started at step 1 did not return within 0.3 s, with no known blocking call"), "\(output)")
    }

    /// Blocking calls are named by the exported function found on the stack, the most telling
    /// first: a semaphore's wait goes through a futex wait too.
    @Test func blockingCallsAreNamedByTheMostTellingFunction() {
      #expect(
        BlockingWait.naming(["recordFrames", "_dispatch_sema4_wait", "_dispatch_semaphore_wait_slow", "main"])?.name
          == "DispatchSemaphore.wait()")
      #expect(
        BlockingWait.naming(["pthread_cond_wait", "$s10Foundation11NSConditionC4waityyF"])?.name == "NSCondition.wait()"
      )
      #expect(BlockingWait.naming(["usleep"])?.name == "a sleep (usleep)")
      // A name that merely contains a C function's name is not that function.
      #expect(BlockingWait.naming(["$s4main9readSleepyyF", "main"]) == nil)
    }
  }
#endif
