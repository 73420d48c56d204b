#if compiler(>=6.3)
  import Dispatch
  import Foundation
  import Synchronization
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// A thread outside the harness that the run sets going, in a way no thread-level call shows,
  /// serves before the run's longer sleep ends, as on real threads: the harness counts the call as
  /// a wake-up, so virtual time waits for it in real time.
  @Suite(
    "Threads woken through Dispatch",
    .enabled(
      if: ControlledExecutor.countsOutsideWork,
      "the test binary's Dispatch and thread calls reach the harness (not under the thread sanitizer)"),
    .timeLimit(.minutes(5)), .hangGuard)
  struct DispatchWakeUpTests {
    /// A thread made before the run that serves one request: it is woken by a `DispatchSemaphore`
    /// signalled or a `DispatchGroup` left, and it begins to wait only once the run has done so.
    /// Dispatch then wakes nobody (a signal that finds no waiter stays in user space), yet the
    /// thread goes on: its wait returns at once. This is a worker still busy with its last request
    /// when the next comes in.
    final class LateWaiter: Sendable {
      enum WakeUp: String, CaseIterable, Sendable { case dispatchSemaphore, dispatchGroup }
      private let wakeUp: WakeUp
      private let semaphore = DispatchSemaphore(value: 0)
      private let group = DispatchGroup()
      private let requested = Atomic<Bool>(false)
      let box = CallbackBox()

      init(wokenBy wakeUp: WakeUp) {
        self.wakeUp = wakeUp
        if wakeUp == .dispatchGroup { group.enter() }
        Thread { [self] in serve() }.start()
      }

      private func serve() {
        // Polled, not waited for: waiting would need a wake-up of its own, which the harness would
        // count in the semaphore's place.
        while !requested.load(ordering: .acquiring) { usleep(100) }
        switch wakeUp {
        case .dispatchSemaphore: semaphore.wait()
        case .dispatchGroup: group.wait()
        }
        usleep(1_000)
        box.set(9)
      }

      /// Signals the semaphore or leaves the group, then lets the thread go on to wait.
      func request() {
        switch wakeUp {
        case .dispatchSemaphore: semaphore.signal()
        case .dispatchGroup: group.leave()
        }
        requested.store(true, ordering: .releasing)
      }
    }

    /// The run wakes a thread made before it through Dispatch before that thread waits, then
    /// sleeps 200 ms: on real threads the thread serves in about a millisecond and the run reads
    /// its value. The harness counts the signal as a wake-up whether or not a thread was waiting,
    /// so virtual time waits for it as real time would.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: LateWaiter.WakeUp.allCases)
    func aDispatchSignalBeforeItsWaiterWaitsStillWakesIt(wokenBy wakeUp: LateWaiter.WakeUp) {
      let waiter = LateWaiter(wokenBy: wakeUp)
      let result = ControlledExecutor.runBlocking(seed: 1) {
        waiter.request()
        try? await Task.sleep(for: .milliseconds(200))
        TraceRecorder.mark("value: \(waiter.box.value.map(String.init) ?? "none")")
      }
      #expect(result.outsideWork.threadsWoken > 0, "\(result.outsideWork)")
      #expect(VirtualTimeAndRealThreadsTests.marks(result) == ["value: 9"])
    }

    /// A Dispatch source made before the run and called from its body. Dispatch's sources may be
    /// called from any thread; the lock is what lets Swift see that.
    final class SharedSource<Source>: Sendable {
      private let source: Mutex<Source>
      init(_ source: sending Source) { self.source = Mutex(source) }
      func call(_ body: (inout Source) -> Void) { source.withLock { body(&$0) } }
    }

    /// What the run sets going through Dispatch, before it sleeps 200 ms and reads a value the
    /// handler sets: on real threads the handler always runs first.
    enum SetGoing: String, CaseIterable, Codable, Sendable {
      /// A timer source the run makes, due in a millisecond, and resumes.
      case timerMadeByTheRun
      /// The same, after the run has skipped an hour of virtual time (which `DispatchTime.now()`
      /// then shows): the timer's start goes back to real time on its way to Dispatch.
      case timerMadeAfterAnHour
      /// A timer source made and resumed before the run, never due (a fixture's idle timer), that
      /// the run re-arms to fire in a millisecond.
      case timerRearmed
      /// Data merged into a source made and resumed before the run (a fixture's event source).
      case dataMerged
      /// A queue suspended before the run with work held on it (a fixture that starts paused),
      /// which the run resumes.
      case queueResumed
    }

    /// Sets up `setGoing` outside the run, runs the body once, and prints whether the run woke a
    /// thread and what it read.
    @available(ExecutorHooks 1.0, *)
    static func printRun(_ setGoing: SetGoing) -> Never {
      let box = CallbackBox()
      let handle: @Sendable () -> Void = { box.set(9) }
      let start: @Sendable () -> Void
      switch setGoing {
      case .timerMadeByTheRun, .timerMadeAfterAnHour:
        let timer = SharedSource<(any DispatchSourceTimer)?>(nil)
        start = {
          timer.call {
            $0 = DispatchSource.makeTimerSource(queue: .global())
            $0?.setEventHandler(handler: handle)
            $0?.schedule(deadline: .now() + .milliseconds(1))
            $0?.resume()
          }
        }
      case .timerRearmed:
        let timer = SharedSource(DispatchSource.makeTimerSource(queue: .global()))
        timer.call {
          $0.setEventHandler(handler: handle)
          $0.schedule(deadline: .distantFuture)
          $0.resume()
        }
        start = { timer.call { $0.schedule(deadline: .now() + .milliseconds(1)) } }
      case .dataMerged:
        let source = SharedSource(DispatchSource.makeUserDataAddSource(queue: .global()))
        source.call {
          $0.setEventHandler(handler: handle)
          $0.resume()
        }
        start = { source.call { $0.add(data: 1) } }
      case .queueResumed:
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        queue.async(execute: handle)
        start = { queue.resume() }
      }
      let before: Duration = setGoing == .timerMadeAfterAnHour ? .seconds(3600) : .zero
      printOutcome(
        ControlledExecutor.runBlocking(seed: 1) {
          try? await Task.sleep(for: before)
          start()
          try? await Task.sleep(for: .milliseconds(200))
          TraceRecorder.mark("value: \(box.value.map(String.init) ?? "none")")
        })
    }

    static func printOutcome(_ result: RunResult) -> Never {
      print("woke threads: \(result.outsideWork.threadsWoken > 0)")
      print("read: \(VirtualTimeAndRealThreadsTests.marks(result))")
      exit(0)
    }

    /// What the run sets going through Dispatch runs before the run's longer sleep ends, as on
    /// real threads: the call counts as waking a thread, so virtual time waits in real time. In a
    /// process of its own, where no other test holds Dispatch's threads.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: SetGoing.allCases)
    func workADispatchCallSetsGoingRunsBeforeALongerSleepEnds(_ setGoing: SetGoing) async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        [setGoing] in DispatchWakeUpTests.printRun(setGoing)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("woke threads: true"), "\(output)")
      #expect(output.contains(#"read: ["value: 9"]"#), "\(output)")
    }
  }
#endif
