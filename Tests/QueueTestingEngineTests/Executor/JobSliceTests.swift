#if compiler(>=6.3)
  import Dispatch
  import Foundation
  import Synchronization
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// A job that has not returned after the run's slice does not hold the run: the run leaves
  /// one-job-at-a-time and goes on beside it on the platform's threads, as the same code does on
  /// real threads. Each test runs in a process of its own (an exit test): a run that stays
  /// one-job-at-a-time over such a job leaves its thread behind.
  @Suite("A job that overstays its slice", .timeLimit(.minutes(5)), .hangGuard)
  struct JobSliceTests {
    /// With the slice, the loop passes under every schedule tried, each run saying where it left
    /// one-job-at-a-time; without it, the same body is stuck (the mutation check: the slice is what
    /// makes it pass).
    @available(ExecutorHooks 1.0, *)
    @Test func aLoopUntilCancelledPassesBesideTheRun() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        var left = 0
        for seed in UInt64(1)...20 {
          let result = ControlledExecutor.runBlocking(
            strategy: SeededRandomStrategy(seed: seed), jobTimeLimit: .seconds(20), jobSlice: .milliseconds(20),
            loopUntilCancelled)
          guard result.outcome == .completed else {
            print("seed \(seed): \(result.outcome)")
            exit(1)
          }
          if result.leftOneJobAtATimeAtStep != nil { left += 1 }
          guard result.outsideWork.description.contains("left one-job-at-a-time at step") else {
            print("seed \(seed): \(result.outsideWork)")
            exit(2)
          }
        }
        print("left: \(left) of 20")
        let without = ControlledExecutor.runBlocking(
          strategy: SeededRandomStrategy(seed: 1), jobTimeLimit: .milliseconds(500), jobSlice: nil,
          loopUntilCancelled)
        guard case .stuck = without.outcome else {
          print("without a slice: \(without.outcome)")
          exit(3)
        }
        print("without a slice: stuck")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("left: 20 of 20"), "\(output)")
      #expect(output.contains("without a slice: stuck"), "\(output)")
    }

    /// A real deadlock of blocked threads stays one: after the run left one-job-at-a-time, nothing
    /// of it moves for the job limit, and the run is stuck, naming the wait.
    @available(ExecutorHooks 1.0, *)
    @Test func aSemaphoreNobodySignalsIsStillStuck() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let semaphore = DispatchSemaphore(value: 0)
        let result = ControlledExecutor.runBlocking(
          strategy: SeededRandomStrategy(seed: 1), jobTimeLimit: .milliseconds(500), jobSlice: .milliseconds(20)
        ) {
          let waiter = Task { semaphore.wait() }
          await waiter.value
        }
        guard case .stuck(let job) = result.outcome else {
          print("run: \(result.outcome)")
          exit(1)
        }
        print("stuck: \(job)")
        _ = semaphore.signal()
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("stuck: task 2's job started at step 2"), "\(output)")
      #expect(output.contains("blocked in DispatchSemaphore.wait()"), "\(output)")
    }

    /// After the run left one-job-at-a-time and the job there returned, a run whose body waits
    /// for something that never comes is stuck after the job limit, and the report says the job
    /// returned and names no wait of it.
    @available(ExecutorHooks 1.0, *)
    @Test func aWaitThatNeverEndsAfterLeavingIsStuck() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let reply = Mutex<CheckedContinuation<Void, Never>?>(nil)
        // The blocked job returns only once the run has left one-job-at-a-time, whatever the
        // machine's load.
        let gate = DispatchSemaphore(value: 0)
        Thread {
          while !RunDriver.shared.hasLeftOneJobAtATime { usleep(1_000) }
          gate.signal()
        }.start()
        let result = ControlledExecutor.runBlocking(
          strategy: SeededRandomStrategy(seed: 1), jobTimeLimit: .milliseconds(500), jobSlice: .milliseconds(20)
        ) {
          let sleeper = Task { gate.wait() }
          await withCheckedContinuation { continuation in reply.withLock { $0 = continuation } }
          await sleeper.value
        }
        guard case .stuck(let job) = result.outcome, job.jobReturned else {
          print("run: \(result.outcome)")
          exit(1)
        }
        print("stuck: \(job)")
        reply.withLock { $0?.resume() }
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("stuck: the run left one-job-at-a-time at step "), "\(output)")
      #expect(output.contains("that job has returned, but no job of the run started for 0.5 s since"), "\(output)")
    }

    /// A wait on a semaphore that another task of the run signals passes, as it does on a pool of
    /// more than one thread.
    @available(ExecutorHooks 1.0, *)
    @Test func aSemaphoreAnotherTaskSignalsPasses() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        for seed in UInt64(1)...10 {
          let result = ControlledExecutor.runBlocking(
            strategy: SeededRandomStrategy(seed: seed), jobTimeLimit: .seconds(20), jobSlice: .milliseconds(20)
          ) {
            await waitOnASemaphoreAnotherTaskSignals()
          }
          guard result.outcome == .completed else {
            print("seed \(seed): \(result.outcome)")
            exit(1)
          }
        }
        print("passed")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("passed"), "\(output)")
    }

    /// The main actor stays serial: while a main-actor job overstays, the main-actor jobs behind
    /// it wait for it to return (they would run beside it on the main thread otherwise).
    @available(ExecutorHooks 1.0, *)
    @Test func mainActorJobsWaitForAnOverstayingMainActorJob() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        for seed in UInt64(1)...10 {
          let counts = MainActorCounts()
          let result = ControlledExecutor.runBlocking(
            strategy: SeededRandomStrategy(seed: seed), jobTimeLimit: .seconds(20), jobSlice: .milliseconds(20)
          ) {
            let spinning = Task { @MainActor in
              counts.onMain.wrappingAdd(1, ordering: .sequentiallyConsistent)
              counts.spinning.store(true, ordering: .relaxed)
              while !counts.release.load(ordering: .relaxed) {}
              counts.onMain.wrappingSubtract(1, ordering: .sequentiallyConsistent)
            }
            let behind = (0..<5).map { _ in
              Task { @MainActor in
                if counts.onMain.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue > 1 {
                  counts.overlaps.wrappingAdd(1, ordering: .relaxed)
                }
                counts.onMain.wrappingSubtract(1, ordering: .sequentiallyConsistent)
              }
            }
            let releaser = Task {
              while !counts.spinning.load(ordering: .relaxed) { await Task.yield() }
              try? await Task.sleep(for: .milliseconds(50))
              counts.release.store(true, ordering: .relaxed)
            }
            await spinning.value
            for task in behind { await task.value }
            await releaser.value
          }
          guard result.outcome == .completed, result.leftOneJobAtATimeAtStep != nil,
            counts.overlaps.load(ordering: .relaxed) == 0
          else {
            print("seed \(seed): \(result.outcome), \(counts.overlaps.load(ordering: .relaxed)) overlap(s)")
            exit(1)
          }
        }
        print("serial")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("serial"), "\(output)")
    }

    /// What the main-actor test counts, shared by its tasks.
    final class MainActorCounts: Sendable {
      let onMain = Atomic<Int>(0)
      let overlaps = Atomic<Int>(0)
      let release = Atomic<Bool>(false)
      let spinning = Atomic<Bool>(false)
    }

    /// The rule for a job past its slice in real time: it overstays when its thread waits or
    /// computed for the whole slice, not when a loaded machine kept it off the processor (the run,
    /// and its schedule, stay as they are); where neither can be read, real time decides.
    @available(ExecutorHooks 1.0, *)
    @Test func onlyAJobThatComputedOrWaitsOverstays() {
      let slice: UInt64 = 50_000_000
      #expect(JobSliceWatch.overstays(waiting: true, cpuUsed: 0, slice: slice))
      #expect(JobSliceWatch.overstays(waiting: false, cpuUsed: slice, slice: slice))
      #expect(!JobSliceWatch.overstays(waiting: false, cpuUsed: slice / 10, slice: slice))
      #expect(!JobSliceWatch.overstays(waiting: false, cpuUsed: 0, slice: slice))
      #expect(JobSliceWatch.overstays(waiting: nil, cpuUsed: nil, slice: slice))
      #expect(JobSliceWatch.overstays(waiting: false, cpuUsed: nil, slice: slice))
    }

    /// A search that had a run leave one-job-at-a-time never claims to have exhausted its space:
    /// what ran after that step was not chosen by any schedule.
    @available(ExecutorHooks 1.0, *)
    @Test func aSearchThatLeftIsNotExhausted() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        var search = ExhaustiveSearch(delayBound: 1, budget: 50)
        while let strategy = search.nextStrategy() {
          let result = ControlledExecutor.runBlocking(
            strategy: strategy, jobTimeLimit: .seconds(20), jobSlice: .milliseconds(20),
            loopUntilCancelled)
          search.record(result)
        }
        print("ran every schedule: \(search.ranEverySchedule), exhausted: \(search.isExhausted)")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("ran every schedule: true, exhausted: false"), "\(output)")
    }
  }
#endif
