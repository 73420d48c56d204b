#if compiler(>=6.3)
  import AsyncQueue
  import Foundation
  import Synchronization
  import QueueTestingEngine
  import QueueWorkloads
  import Testing

  /// Collects values from code under a controlled run (which runs on the driver thread), for
  /// assertions after the run, where the run's outcome is known too.
  final class Box<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func update(_ body: @Sendable (inout Value) -> Void) { value.withLock { body(&$0) } }
    var current: Value { value.withLock { $0 } }
  }

  /// The thread a piece of code ran on.
  func threadID() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

  @Suite("ControlledExecutor", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct ControlledExecutorTests {
    /// Every job source runs on the driver thread, held and ordered by the harness.
    @available(ExecutorHooks 1.0, *)
    @Test func capturesEveryJobSource() async {
      let threads = Box<[String: UInt]>([:])
      let result = await ControlledExecutor.run(seed: 1) {
        threads.update { $0["root"] = threadID() }
        await Task { threads.update { $0["Task {}"] = threadID() } }.value
        await Task.detached { threads.update { $0["Task.detached"] = threadID() } }.value
        async let child: Void = threads.update { $0["async let"] = threadID() }
        await child
        await withTaskGroup(of: Void.self) { group in
          group.addTask { threads.update { $0["TaskGroup child"] = threadID() } }
        }
        await CountingActor().incrementAndCheck(1)
        threads.update { $0["after actor hop"] = threadID() }
        await MainActor.run { threads.update { $0["@MainActor"] = threadID() } }
        await Task.yield()
        threads.update { $0["after Task.yield"] = threadID() }
        try? await Task.sleep(for: .milliseconds(5))
        threads.update { $0["after Task.sleep"] = threadID() }
      }
      #expect(result.outcome == .completed)
      let seen = threads.current
      #expect(seen.count == 9)
      #expect(Set(seen.values).count == 1, "every job ran on the one driver thread: \(seen)")
      #expect(result.trace.events.contains { $0.kind == .ran(.main) })
      #expect(result.trace.events.contains { $0.kind == .ran(.timer) })
      #expect(Set(result.trace.events.map(\.task)).count >= 6)
    }

    /// Sleeps complete in virtual time, which advances only when nothing else can run.
    @available(ExecutorHooks 1.0, *)
    @Test func oneHourOfSleepIsVirtual() async {
      let start = ContinuousClock.now
      let woke = Box<[Int]>([])
      let result = await ControlledExecutor.run(seed: 3) {
        await withTaskGroup(of: Void.self) { group in
          group.addTask {
            try? await Task.sleep(for: .seconds(3600))
            woke.update { $0.append(3600) }
          }
          group.addTask {
            try? await Task.sleep(for: .seconds(1))
            woke.update { $0.append(1) }
          }
        }
      }
      #expect(result.outcome == .completed)
      #expect(result.virtualTime == 3_600_000_000_000)
      #expect(woke.current == [1, 3600])
      // Not a speed check: a real one-hour sleep is the only way past this bound.
      #expect(ContinuousClock.now - start < .seconds(60))
    }

    /// The same seed gives the same trace; a recorded schedule replays it; seeds differ.
    @available(ExecutorHooks 1.0, *)
    @Test func sameSeedSameTraceAndReplay() async {
      let body: @Sendable () async -> Void = {
        let counter = CountingActor()
        await withTaskGroup(of: Void.self) { group in
          for index in 1...20 {
            group.addTask {
              await Task.yield()
              await counter.incrementAndCheck(index)
            }
          }
        }
      }
      let first = await ControlledExecutor.run(seed: 42, body)
      let second = await ControlledExecutor.run(seed: 42, body)
      #expect(first.trace.hash == second.trace.hash)
      #expect(first.trace == second.trace)
      let replayed = await ControlledExecutor.run(strategy: ReplayStrategy(first.schedule), body)
      #expect(replayed.trace.hash == first.trace.hash)
      var hashes = Set<UInt64>()
      for seed in UInt64(1)...8 {
        hashes.insert(await ControlledExecutor.run(seed: seed, body).trace.hash)
      }
      #expect(hashes.count > 1, "different seeds explore different schedules")
    }

    /// The task-per-call counterexample: 100 `Task {}` from nonisolated code into an actor. The count an
    /// increment observes is out of order under some schedule, found within the first few seeds.
    @available(ExecutorHooks 1.0, *)
    @Test func seedCounterexampleIsCaughtWithinAFewSchedules() async {
      var firstFailingSeed: UInt64?
      for seed in UInt64(1)...5 {
        let outOfOrder = Box(0)
        let result = await ControlledExecutor.run(seed: seed) {
          let count = await naiveTaskPerCallViolations()
          outOfOrder.update { $0 = count }
        }
        #expect(result.outcome == .completed)
        if outOfOrder.current > 0 {
          firstFailingSeed = seed
          break
        }
      }
      #expect(firstFailingSeed != nil, "the naive version must fail under one of the first 5 schedules")
      print(
        "task-per-call counterexample: first out-of-order count under seed \(firstFailingSeed.map(String.init) ?? "none")"
      )
    }

    /// The same workload through our queues holds under every explored schedule.
    @available(ExecutorHooks 1.0, *)
    @Test func queuesKeepOrderUnderManySchedules() async {
      for seed in UInt64(1)...20 {
        let violations = Box(0)
        let result = await ControlledExecutor.run(seed: seed) {
          let count = await queueOrderViolations()
          violations.update { $0 = count }
        }
        #expect(result.outcome == .completed, "seed \(seed)")
        #expect(violations.current == 0, "seed \(seed): \(result.schedule)")
      }
    }

    /// A waiter nobody resumes ends the run with a report instead of hanging; a named one is
    /// named in it.
    @available(ExecutorHooks 1.0, *)
    @Test func unresumedContinuationIsReportedAsDeadlock() async {
      let result = await ControlledExecutor.run(seed: 1, outsideWorkTimeout: .zero) {
        await withNamedContinuation("reply") { (_: CheckedContinuation<Void, Never>) in }
      }
      guard case .deadlocked(let report) = result.outcome else {
        Issue.record("expected a deadlock, got \(result.outcome)")
        return
      }
      #expect(report.blockedTasks.map(\.waitsOn) == [.named("continuation 'reply'")])
      #expect(report.blockedTasks.first?.task == 1)
      #expect(report.cycle.isEmpty)
      #expect(report.description.contains("task 1 (root) waits at continuation 'reply', which nothing resumes"))
    }

    /// A task waiting at a gate nobody opens shows by name (with its task name); an opened gate
    /// lets it through.
    @available(ExecutorHooks 1.0, *)
    @Test func unopenedGateIsNamedInTheReport() async {
      let result = await ControlledExecutor.run(seed: 3, outsideWorkTimeout: .zero) {
        let gate = TestGate("loaded")
        let opened = TestGate("opened")
        opened.open()
        await opened.wait()
        await Task(name: "loader") { await gate.wait() }.value
      }
      guard case .deadlocked(let report) = result.outcome else {
        Issue.record("expected a deadlock, got \(result.outcome)")
        return
      }
      #expect(report.blockedTasks.map(\.waitsOn) == [.named("gate 'loaded'")])
      #expect(report.blockedTasks.first?.label == "task 2 'loader'")
    }

    /// A FIFO item that waits for its own queue deadlocks (documented); the report shows the
    /// one-task cycle: the item's task waits for the next item, which waits behind the first.
    @available(ExecutorHooks 1.0, *)
    @Test func fifoItemAwaitingItsOwnQueueIsReportedAsDeadlock() async {
      let result = await ControlledExecutor.run(seed: 1) {
        let queue = FIFOQueue(name: "outer")
        await queue.enqueueAndWait {
          await queue.enqueueAndWait {}
        }
      }
      guard case .deadlocked(let report) = result.outcome else {
        Issue.record("expected a deadlock, got \(result.outcome)")
        return
      }
      let first = QueueItem(queue: 1, queueName: "outer", kind: .fifo, number: 1)
      let second = QueueItem(queue: 1, queueName: "outer", kind: .fifo, number: 2)
      #expect(
        report.blockedTasks == [
          .init(
            task: 1, label: "task 1 (root)", waitsOn: .queueTurn(item: second, behind: first, heldBy: 1),
            running: [first])
        ])
      #expect(report.cycle == [1])
      #expect(report.itemsNeverStarted == [second])
      #expect(report.description.contains("task 1 (root) (running outer#1) waits for outer#2 to start, behind outer#1"))
    }

    /// Two FIFO queues whose items wait for each other deadlock; the report shows the two-task
    /// cycle.
    @available(ExecutorHooks 1.0, *)
    @Test func twoQueuesAwaitingEachOtherAreReportedAsDeadlock() async {
      let result = await ControlledExecutor.run(seed: 7) {
        let first = FIFOQueue(name: "first")
        let second = FIFOQueue(name: "second")
        let bothStarted = Box(0)
        let a = Task(name: "a", on: first) {
          bothStarted.update { $0 += 1 }
          while bothStarted.current < 2 { await Task.yield() }
          await second.enqueueAndWait {}
        }
        let b = Task(name: "b", on: second) {
          bothStarted.update { $0 += 1 }
          while bothStarted.current < 2 { await Task.yield() }
          await first.enqueueAndWait {}
        }
        await a.value
        await b.value
      }
      guard case .deadlocked(let report) = result.outcome else {
        Issue.record("expected a deadlock, got \(result.outcome)")
        return
      }
      let labels = Set(report.blockedTasks.map(\.label))
      #expect(labels == ["task 2 'a'", "task 3 'b'"])
      #expect(report.cycle == [2, 3])
      #expect(report.description.contains("wait-for cycle: task 2 → task 3 → task 2"))
      #expect(Set(report.itemsNeverStarted.map(\.description)) == ["first#2", "second#2"])
    }

    /// A queue that finishes leaves no blocked task behind: the ledger is not a source of false
    /// deadlocks.
    @available(ExecutorHooks 1.0, *)
    @Test func completedQueueWorkReportsNothing() async {
      let result = await ControlledExecutor.run(seed: 4) {
        let queue = FIFOQueue()
        queue.enqueue { await Task.yield() }
        await queue.enqueueAndWait {}
      }
      #expect(result.outcome == .completed)
      let kinds = result.trace.events.compactMap { event -> String? in
        if case .ran = event.kind { return nil }
        return event.kind.summary
      }
      #expect(
        kinds == [
          "enqueue fifo1#1", "enqueue+wait fifo1#2", "start fifo1#1", "finish fifo1#1", "start fifo1#2",
          "finish fifo1#2",
        ])
    }

    /// A continuation resumed from a Dispatch thread is captured when the wake-up is declared: the
    /// driver waits for it, and the rest of the task runs on the driver thread.
    @available(ExecutorHooks 1.0, *)
    @Test func declaredOutsideWakeUpIsAwaitedAndCaptured() async {
      let threads = Box<[String: UInt]>([:])
      let result = await ControlledExecutor.run(seed: 2) {
        threads.update { $0["before"] = threadID() }
        let reply = await withUnsafeContinuation { (continuation: UnsafeContinuation<Int, Never>) in
          // The driver waits for this wake-up (up to 10 s); its 20 ms delay does not decide the outcome.
          ControlledExecutor.expectOutsideWakeUp("reply from a Dispatch queue")
          DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            continuation.resume(returning: 42)
          }
        }
        threads.update { $0["after reply \(reply)"] = threadID() }
      }
      #expect(result.outcome == .completed)
      let seen = threads.current
      #expect(seen.keys.sorted() == ["after reply 42", "before"])
      #expect(Set(seen.values).count == 1, "the resumed task ran on the driver thread: \(seen)")
    }

    /// A declared wake-up that never comes is reported as such, not as a deadlock.
    @available(ExecutorHooks 1.0, *)
    @Test func missingOutsideWakeUpIsNamed() async {
      let result = await ControlledExecutor.run(seed: 2, outsideWakeUpTimeout: .milliseconds(100)) {
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in
          ControlledExecutor.expectOutsideWakeUp("a reply that is never sent")
        }
      }
      #expect(result.outcome == .outsideWakeUpNeverCame(["a reply that is never sent"]))
    }

    /// Work running beside a controlled run is neither captured nor disturbed, and does not change
    /// the run: the trace equals that of a quiet run with the same seed.
    @available(ExecutorHooks 1.0, *)
    @Test func parallelNoisyWorkIsNotCaptured() async {
      let body: @Sendable () async -> Void = {
        let counter = CountingActor()
        await withTaskGroup(of: Void.self) { group in
          for index in 1...30 { group.addTask { await counter.incrementAndCheck(index) } }
        }
      }
      let quiet = await ControlledExecutor.run(seed: 11, body)
      let stop = Box(false)
      let noiseDone = Box(0)
      let noise = Task.detached {
        let queue = FIFOQueue()
        var rounds = 0
        while !stop.current {
          for _ in 0..<50 { queue.enqueue { await Task.yield() } }
          await queue.enqueueAndWait {}
          rounds += 1
        }
        let finalRounds = rounds
        noiseDone.update { $0 = finalRounds }
      }
      await Task.yield()
      var noisy: [RunResult] = []
      for _ in 0..<20 { noisy.append(await ControlledExecutor.run(seed: 11, body)) }
      stop.update { $0 = true }
      await noise.value
      #expect(noisy.allSatisfy { $0.trace == quiet.trace })
      #expect(noiseDone.current > 0, "the noisy work ran (outside the harness)")
    }

    /// Jobs enqueued during one step become runnable in the order they were enqueued, and tasks
    /// are numbered in the order the run first sees them, also when a task that starts at once
    /// records an event between two task creations. (The driver holds the jobs its own steps
    /// enqueue without taking the lock; it must hand them over in order, and before anything
    /// reads the state.)
    @available(ExecutorHooks 1.0, *)
    @Test func tasksAreQueuedAndNumberedInTheOrderTheyAppear() async {
      let result = await ControlledExecutor.run(strategy: ReplayStrategy(Schedule(choices: []))) {
        let first = Task(name: "first") { _ = TraceRecorder.mark("first ran") }
        let immediate = Task.immediate(name: "immediate") { _ = TraceRecorder.mark("immediate started") }
        let second = Task(name: "second") { _ = TraceRecorder.mark("second ran") }
        let third = Task(name: "third") { _ = TraceRecorder.mark("third ran") }
        await immediate.value
        await first.value
        await second.value
        await third.value
      }
      #expect(result.outcome == .completed)
      let marks = result.trace.events.compactMap { event -> String? in
        guard case .mark(let label) = event.kind else { return nil }
        return "\(label) in \(result.trace.label(ofTask: event.task))"
      }
      #expect(
        marks == [
          "immediate started in task 3 'immediate'", "first ran in task 2 'first'",
          "second ran in task 4 'second'", "third ran in task 5 'third'",
        ])
    }

    /// A continuation resumed from another thread while the driver still has work is held for the
    /// run at the driver's next step (not only once nothing else is runnable) and runs on the
    /// driver thread. The resuming thread is waited for synchronously inside a job, so the wake-up
    /// arrives while that job runs, every time; oldest-first order then runs it within two steps.
    @available(ExecutorHooks 1.0, *)
    @Test func continuationResumedFromAnotherThreadJoinsTheRunAtOnce() async {
      let continuation = Box<CheckedContinuation<Void, Never>?>(nil)
      let threads = Box<[String: UInt]>([:])
      let result = await ControlledExecutor.run(strategy: ReplayStrategy(Schedule(choices: []))) {
        threads.update { $0["root"] = threadID() }
        await withTaskGroup(of: Void.self) { group in
          group.addTask {
            await withCheckedContinuation { resume in continuation.update { $0 = resume } }
            threads.update { $0["resumed"] = threadID() }
            _ = TraceRecorder.mark("resumed")
          }
          group.addTask {
            while continuation.current == nil { await Task.yield() }
            let resumed = DispatchSemaphore(value: 0)
            let waiting = continuation.current
            Thread.detachNewThread {
              waiting?.resume()
              resumed.signal()
            }
            resumed.wait()
            for _ in 0..<20 { await Task.yield() }
            _ = TraceRecorder.mark("yields done")
          }
        }
      }
      #expect(result.outcome == .completed)
      let marks = result.trace.events.compactMap { event -> String? in
        guard case .mark(let label) = event.kind else { return nil }
        return label
      }
      #expect(marks == ["resumed", "yields done"])
      #expect(threads.current["resumed"] == threads.current["root"])
    }

    /// A livelock ends at the step budget with its own outcome.
    @available(ExecutorHooks 1.0, *)
    @Test func stepBudgetStopsALivelock() async {
      let result = await ControlledExecutor.run(seed: 1, stepBudget: 500) {
        while true { await Task.yield() }
      }
      #expect(result.outcome == .stepBudgetExceeded(steps: 500))
    }

    /// The schedule's text form round-trips and rejects malformed input with a reason.
    @Test func scheduleTextForm() throws {
      let schedule = Schedule(choices: [0, 2, 35, 36, 1])
      #expect(schedule.description == "s1:0.2.z.10.1")
      #expect(try Schedule(parsing: schedule.description) == schedule)
      #expect(try Schedule(parsing: "s1:") == Schedule(choices: []))
      #expect(throws: ScheduleParseError.self) { try Schedule(parsing: "0.1") }
      #expect(throws: ScheduleParseError.self) { try Schedule(parsing: "s1:0..1") }
      #expect(throws: ScheduleParseError.self) { try Schedule(parsing: "s1:0.!") }
    }
  }
#endif  // compiler(>=6.3): without the 6.3 runtime SPI there is no ControlledExecutor
