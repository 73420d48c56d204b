#if compiler(>=6.3)
  import Dispatch
  import Foundation
  import Synchronization
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// Work a Dispatch call of the run sets going on a queue (a source's handler, a resumed queue's
  /// work) runs before the run's longer sleep ends, as on real threads. The queue is one a
  /// fixture keeps busy, so Dispatch adds the work behind its item and wakes no thread: the call
  /// itself counts as a wake-up. In processes of their own, where no other test holds
  /// Dispatch's threads.
  @Suite(
    "Work set going through Dispatch",
    .enabled(
      if: ControlledExecutor.countsOutsideWork,
      "the test binary's Dispatch and thread calls reach the harness (not under the thread sanitizer)"),
    .timeLimit(.minutes(5)), .hangGuard)
  struct DispatchSourceWakeUpTests {
    /// A serial queue kept busy by an item that polls until `release()`: work added to the queue
    /// meanwhile waits behind the item, and Dispatch wakes no thread for it.
    final class BusyQueue: Sendable {
      let queue = DispatchQueue(label: "busy")
      private let running = Atomic<Bool>(false)
      private let released = Atomic<Bool>(false)

      /// Starts the item, and returns once it runs (what was queued before it has run by then).
      func occupy() {
        queue.async { [self] in
          running.store(true, ordering: .releasing)
          while !released.load(ordering: .acquiring) { usleep(100) }
        }
        while !running.load(ordering: .acquiring) { usleep(100) }
      }

      /// Lets the item end (an atomic store: no wake-up the harness could count).
      func release() { released.store(true, ordering: .releasing) }
    }

    /// A Dispatch source shared between the fixture and the run's body. Dispatch's sources may be
    /// called from any thread; the lock is what lets Swift see that.
    final class SharedSource<Source>: Sendable {
      private let source: Mutex<Source>
      init(_ source: sending Source) { self.source = Mutex(source) }
      func call(_ body: (inout Source) -> Void) { source.withLock { body(&$0) } }
    }

    /// What the run sets going through Dispatch on the busy queue, before it releases the queue,
    /// sleeps 200 ms and reads a value the handler sets: on real threads the handler always runs
    /// first.
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
      /// A queue made inactive before the run with work held on it, which the run activates.
      case queueActivated
    }

    /// Sets up `setGoing` (outside any run) and returns the body, which sleeps `before`, sets the
    /// work going, releases the busy queue, sleeps 200 ms, and returns what it read.
    static func body(_ setGoing: SetGoing, after before: Duration) -> @Sendable () async -> String {
      let box = CallbackBox()
      let handle: @Sendable () -> Void = { box.set(9) }
      let busy = BusyQueue()
      let start: @Sendable () -> Void
      switch setGoing {
      case .timerMadeByTheRun, .timerMadeAfterAnHour:
        let timer = SharedSource<(any DispatchSourceTimer)?>(nil)
        start = {
          timer.call {
            $0 = DispatchSource.makeTimerSource(queue: busy.queue)
            $0?.setEventHandler(handler: handle)
            $0?.schedule(deadline: .now() + .milliseconds(1))
            $0?.resume()
          }
        }
      case .timerRearmed:
        let timer = SharedSource(DispatchSource.makeTimerSource(queue: busy.queue))
        timer.call {
          $0.setEventHandler(handler: handle)
          $0.schedule(deadline: .distantFuture)
          $0.resume()
        }
        start = { timer.call { $0.schedule(deadline: .now() + .milliseconds(1)) } }
      case .dataMerged:
        let source = SharedSource(DispatchSource.makeUserDataAddSource(queue: busy.queue))
        source.call {
          $0.setEventHandler(handler: handle)
          $0.resume()
        }
        start = { source.call { $0.add(data: 1) } }
      case .queueResumed:
        let queue = DispatchQueue(label: "held", target: busy.queue)
        queue.suspend()
        queue.async(execute: handle)
        start = { queue.resume() }
      case .queueActivated:
        let queue = DispatchQueue(label: "inactive", attributes: .initiallyInactive, target: busy.queue)
        queue.async(execute: handle)
        start = { queue.activate() }
      }
      busy.occupy()
      return {
        try? await Task.sleep(for: before)
        start()
        busy.release()
        try? await Task.sleep(for: .milliseconds(200))
        return "value: \(box.value.map(String.init) ?? "none")"
      }
    }

    /// Runs the body of `setGoing` on real threads, then under the harness, each with a fixture
    /// of its own, and prints what each read and whether the run woke a thread. On real threads
    /// the hour is not slept: it changes nothing there.
    @available(ExecutorHooks 1.0, *)
    static func printRuns(_ setGoing: SetGoing) -> Never {
      let plain = body(setGoing, after: .zero)
      let readPlain = CallbackBox()
      let done = DispatchSemaphore(value: 0)
      Task {
        readPlain.set(await plain() == "value: 9" ? 9 : 0)
        done.signal()
      }
      done.wait()
      print("real threads read 9: \(readPlain.value == 9)")
      let controlled = body(setGoing, after: setGoing == .timerMadeAfterAnHour ? .seconds(3600) : .zero)
      let result = ControlledExecutor.runBlocking(seed: 1) { TraceRecorder.mark(await controlled()) }
      print("woke threads: \(result.outsideWork.threadsWoken > 0)")
      print("read: \(VirtualTimeAndRealThreadsTests.marks(result))")
      exit(0)
    }

    /// What the run sets going through Dispatch runs before the run's longer sleep ends, as it
    /// does on real threads (checked with the same body): the call counts as waking a thread, so
    /// virtual time waits in real time.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: SetGoing.allCases)
    func workADispatchCallSetsGoingRunsBeforeALongerSleepEnds(_ setGoing: SetGoing) async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        [setGoing] in DispatchSourceWakeUpTests.printRuns(setGoing)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("real threads read 9: true"), "\(output)")
      #expect(output.contains("woke threads: true"), "\(output)")
      #expect(output.contains(#"read: ["value: 9"]"#), "\(output)")
    }
  }
#endif
