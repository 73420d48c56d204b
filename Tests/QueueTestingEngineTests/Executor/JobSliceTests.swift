#if compiler(>=6.3)
  import Dispatch
  import Foundation
  import Synchronization
  @_spi(Strategies) @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// A job that has not returned after the run's slice does not hold the run: the run leaves
  /// one-job-at-a-time, the job goes on on its own thread, and a relief thread goes on choosing
  /// and running the run's other jobs one at a time beside it, as real threads would run them
  /// beside it. Each test runs in a process of its own (an exit test): a run that stays
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

    /// After the run left one-job-at-a-time and the job there returned, a body that waits for
    /// something that never comes is a deadlock like any other: the harness still drives the run,
    /// finds nothing runnable and nothing that could make anything runnable, and reports who waits.
    @available(ExecutorHooks 1.0, *)
    @Test func aWaitThatNeverEndsAfterLeavingIsADeadlock() async throws {
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
          strategy: SeededRandomStrategy(seed: 1), jobTimeLimit: .seconds(20), jobSlice: .milliseconds(20)
        ) {
          let sleeper = Task { gate.wait() }
          await withCheckedContinuation { continuation in reply.withLock { $0 = continuation } }
          await sleeper.value
        }
        guard case .deadlocked(let report) = result.outcome, let step = result.leftOneJobAtATimeAtStep else {
          print("run: \(result.outcome)")
          exit(1)
        }
        print("deadlocked after leaving at step \(step), \(report.taskCount) tasks")
        reply.withLock { $0?.resume() }
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("deadlocked after leaving at step "), "\(output)")
    }

    /// After a job overstays, the harness goes on choosing: the other jobs run one at a time (they
    /// never overlap, where real threads would run them at once), in the order the strategy
    /// chooses (one seed gives one order every time, and seeds give different orders).
    @available(ExecutorHooks 1.0, *)
    @Test func theHarnessKeepsChoosingBesideAnOverstayingJob() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        var orders: [UInt64: [Int]] = [:]
        for seed in UInt64(1)...6 {
          for _ in 0..<2 {
            let workers = WorkersBesideASpinner()
            // Called from a thread of its own, so that every thread of the pool is free to run the
            // workers at once.
            let result = await Self.onAThreadOfItsOwn {
              ControlledExecutor.runBlocking(
                strategy: SeededRandomStrategy(seed: seed), jobTimeLimit: .seconds(20), jobSlice: .milliseconds(20),
                workers.body)
            }
            let order = workers.order.withLock { $0 }
            guard result.outcome == .completed, result.leftOneJobAtATimeAtStep != nil else {
              print("seed \(seed): \(result.outcome), left at \(String(describing: result.leftOneJobAtATimeAtStep))")
              exit(1)
            }
            guard workers.overlaps.load(ordering: .relaxed) == 0 else {
              print("seed \(seed): \(workers.overlaps.load(ordering: .relaxed)) overlap(s)")
              exit(2)
            }
            if let earlier = orders[seed], earlier != order {
              print("seed \(seed): \(earlier) then \(order)")
              exit(3)
            }
            orders[seed] = order
          }
        }
        print("one at a time, \(Set(orders.values).count) orders from 6 seeds")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("one at a time"), "\(output)")
      #expect(!output.contains("1 orders from 6 seeds"), "\(output)")
    }

    /// Virtual time does not run past a job that overstays: it goes on in real time, so a jump of
    /// virtual time waits for as much real time (as it does for work outside the harness). A body
    /// that sleeps 300 ms of virtual time beside such a job takes at least 300 ms; jumping at once,
    /// it would take about the slice.
    @available(ExecutorHooks 1.0, *)
    @Test func virtualTimeIsPacedBesideAnOverstayingJob() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = ControlledExecutor.runBlocking(
          strategy: SeededRandomStrategy(seed: 1), jobTimeLimit: .seconds(20), jobSlice: .milliseconds(20)
        ) {
          let spinning = Atomic<Bool>(false)
          let release = Atomic<Bool>(false)
          let spinner = Task {
            spinning.store(true, ordering: .sequentiallyConsistent)
            while !release.load(ordering: .sequentiallyConsistent) {}
          }
          while !spinning.load(ordering: .sequentiallyConsistent) { await Task.yield() }
          try? await Task.sleep(for: .milliseconds(300))
          release.store(true, ordering: .sequentiallyConsistent)
          await spinner.value
        }
        let elapsed = clock.now - start
        print("\(result.outcome), left at \(String(describing: result.leftOneJobAtATimeAtStep)), took \(elapsed)")
        let paced = result.leftOneJobAtATimeAtStep != nil && elapsed >= .milliseconds(300)
        exit(result.outcome == .completed && paced ? 0 : 1)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("completed"), "\(output)")
    }

    /// The run's other jobs need no thread of the cooperative pool after a job overstays: with
    /// every thread of the pool blocked (a machine with one processor, or tests in parallel that
    /// wait), the run still finishes.
    @available(ExecutorHooks 1.0, *)
    @Test func aRunThatLeftNeedsNoThreadOfThePool() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let processors = ProcessInfo.processInfo.activeProcessorCount
        // As many blocked tasks as the pool has threads: those that start take every thread
        // the pool gives (this body may hold one).
        for _ in 0..<processors {
          Task.detached {
            started.signal()
            release.wait()
          }
        }
        var blocking = 0
        while started.wait(timeout: .now() + 1) == .success { blocking += 1 }
        let result = ControlledExecutor.runBlocking(
          strategy: SeededRandomStrategy(seed: 1), jobTimeLimit: .seconds(5), jobSlice: .milliseconds(20),
          loopUntilCancelled)
        print("\(blocking) of \(processors) pool threads blocked: \(result.outcome)")
        for _ in 0..<processors { release.signal() }
        exit(result.outcome == .completed && result.leftOneJobAtATimeAtStep != nil ? 0 : 1)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("pool threads blocked: completed"), "\(output)")
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

    /// Four workers that each take three turns of a 3 ms blocking wait, counting overlaps, beside a
    /// task that spins until they are done (it overstays the slice: the workers only start once
    /// it spins).
    final class WorkersBesideASpinner: Sendable {
      let order = Mutex<[Int]>([])
      let overlaps = Atomic<Int>(0)
      private let inside = Atomic<Int>(0)
      private let spinning = Atomic<Bool>(false)
      private let release = Atomic<Bool>(false)

      var body: @Sendable () async -> Void {
        { [self] in
          let spinner = Task {
            spinning.store(true, ordering: .sequentiallyConsistent)
            while !release.load(ordering: .sequentiallyConsistent) {}
          }
          let workers = (0..<4).map { worker in
            Task {
              while !spinning.load(ordering: .sequentiallyConsistent) { await Task.yield() }
              for _ in 0..<3 {
                if inside.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue > 1 {
                  overlaps.wrappingAdd(1, ordering: .relaxed)
                }
                // Blocked, not computing: on real threads another worker runs meanwhile.
                usleep(3_000)
                inside.wrappingSubtract(1, ordering: .sequentiallyConsistent)
                order.withLock { $0.append(worker) }
                await Task.yield()
              }
            }
          }
          for worker in workers { await worker.value }
          release.store(true, ordering: .sequentiallyConsistent)
          await spinner.value
        }
      }
    }

    /// What `body` returns, called on a thread that is not one of the cooperative pool's, while
    /// the caller waits without holding one.
    static func onAThreadOfItsOwn<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
      await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
      }
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
