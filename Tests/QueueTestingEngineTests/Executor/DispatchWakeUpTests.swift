#if compiler(>=6.3)
  import Dispatch
  import Foundation
  import Synchronization
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// A thread outside the harness that the run wakes through a `DispatchSemaphore` or a
  /// `DispatchGroup`, in a way no thread-level call shows, serves before the run's longer sleep
  /// ends, as on real threads: the harness counts the Dispatch call as a wake-up, so virtual time
  /// waits for it in real time.
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
    /// sleeps 200 ms: on real threads the thread serves in about a millisecond and the body reads
    /// its value (checked first, with a waiter of its own). The harness counts the signal as a wake-up whether or not a thread was waiting,
    /// so virtual time waits for it as real time would.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: LateWaiter.WakeUp.allCases)
    func aDispatchSignalBeforeItsWaiterWaitsStillWakesIt(wokenBy wakeUp: LateWaiter.WakeUp) async {
      let onRealThreads = LateWaiter(wokenBy: wakeUp)
      onRealThreads.request()
      try? await Task.sleep(for: .milliseconds(200))
      #expect(onRealThreads.box.value == 9, "on real threads")
      let waiter = LateWaiter(wokenBy: wakeUp)
      let result = ControlledExecutor.runBlocking(seed: 1) {
        waiter.request()
        try? await Task.sleep(for: .milliseconds(200))
        TraceRecorder.mark("value: \(waiter.box.value.map(String.init) ?? "none")")
      }
      #expect(result.outsideWork.threadsWoken > 0, "\(result.outsideWork)")
      #expect(VirtualTimeAndRealThreadsTests.marks(result) == ["value: 9"])
    }
  }
#endif
