import Foundation
import QueueTesting
import Synchronization
import Testing
import XCTest

/// Never set: a loop on it spins forever without the compiler removing it.
let stopSpinning = Atomic<Bool>(false)

@Test func first() { #expect(1 + 1 == 2) }
@Test func second() async { await Task.yield() }
@Test func third() { #expect(Int("3") == 3) }
@Test func fourth() { #expect("a" < "b") }
@Test func fifth() { #expect([1, 2].count == 2) }

/// Waits for a reply that nothing sends: every schedule deadlocks.
@Test(.controlledScheduling(.random(5)))
func waitsForever() async {
  await withNamedContinuation("reply") { (_: CheckedContinuation<Void, Never>) in }
}

/// Drops its continuation without resuming it: the runtime says so, and the report quotes it at
/// once instead of waiting two seconds per schedule for work from outside.
@Test(.controlledScheduling(.random(5)))
func leaksItsContinuation() async {
  await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
}

/// Passes on every schedule: controlled tests that finish are unaffected.
@Test(.controlledScheduling(.random(20)))
func finishes() async {
  async let value = Task.yield()
  await value
}

/// Spins without ever awaiting: the one thread of its controlled run never comes back.
@Test(.controlledScheduling(.random(5)), .timeLimit(.minutes(1)))
func spinsForever() async {
  await Task.yield()
  while !stopSpinning.load(ordering: .relaxed) {}
}

/// A deadlock of blocked threads: a task waits on a semaphore that the body signals only after
/// that task is done. The run goes on beside the waiting job once it overstays its slice, and then
/// nothing of it moves: the watchdog's report names the semaphore.
@Test(.controlledScheduling(.random(5)), .timeLimit(.minutes(1)))
func waitsOnASemaphore() async {
  let semaphore = DispatchSemaphore(value: 0)
  let waiter = Task { semaphore.wait() }
  await waiter.value
  semaphore.signal()
}

/// Waits on a semaphore that another task signals: on real threads that task runs on another
/// thread of the pool, and under the trait the run goes on beside the waiting job once it
/// overstays its slice. It passes, in well under the job limit. (No time limit: in a worker it may
/// wait its turn behind a stuck test.)
@Test(.controlledScheduling(.random(5)))
func waitsOnASemaphoreAnotherTaskSignals() async {
  let semaphore = DispatchSemaphore(value: 0)
  let waiter = Task { semaphore.wait() }
  let signaller = Task { _ = semaphore.signal() }
  await waiter.value
  await signaller.value
}

/// Crashes on purpose: the message and its line must reach the report.
@Test(.controlledScheduling(.random(5)))
func crashes() async {
  await Task.yield()
  fatalError("the catalog is corrupt")
}

/// How many schedules of `resumesTwice()` have started in this process.
let resumesTwiceRuns = Mutex(0)

/// Resumes a continuation a second time on its third schedule, as a late callback would: the
/// runtime ends the process, and the report must name that schedule and how to reach it again.
@Test(.controlledScheduling(.random(5)))
func resumesTwice() async {
  let run = resumesTwiceRuns.withLock { runs in
    runs += 1
    return runs
  }
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    continuation.resume()
    if run == 3 { continuation.resume() }
  }
}

/// Resumes a continuation from a Dispatch callback, and again from a later one, then sleeps long
/// enough on real threads for the second to land: the runtime traps. The run waits for the work
/// it handed to Dispatch before its virtual sleep ends, so the trap comes in the first schedule.
@Test(.controlledScheduling(.random(5)))
func resumesTwiceFromACallback() async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    DispatchQueue.global().async { continuation.resume() }
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { continuation.resume() }
  }
  try? await Task.sleep(for: .milliseconds(50))
}

/// Stops its own process (the child that runs it) as a debugger or a wedged process would: its
/// watchdog cannot run, so only the parent can end it. Run alone by `.ci/stuck-suite.sh`.
@Test(.controlledScheduling(.random(5)))
func stopsItself() async {
  await Task.yield()
  kill(getpid(), SIGSTOP)
}

/// The reply it waits for, never sent.
let neverSent = Mutex<CheckedContinuation<Void, Never>?>(nil)

/// Blocks a job past its slice (the run goes on beside it within the slice's 25 ms; the job sleeps
/// 500 ms), then waits for a reply nothing sends: once the blocked job returns, nothing of the run
/// can run, and the harness, still driving it, reports a deadlock. Run alone by
/// `.ci/stuck-suite.sh`, with a job limit of 3 s.
@Test(.controlledScheduling(.random(5)))
func waitsForAReplyAfterLeaving() async {
  let sleeper = Task { _ = usleep(500_000) }
  await withCheckedContinuation { continuation in neverSent.withLock { $0 = continuation } }
  await sleeper.value
}

final class StuckSuiteXCTests: XCTestCase {
  func testFirst() { XCTAssertEqual(1 + 1, 2) }

  /// The XCTest entry point abandons a body that cannot finish and fails at this line.
  func testWaitsForever() async {
    await runControlledSchedules(ControlledScheduling(.random(5))) {
      await withNamedContinuation("reply") { (_: CheckedContinuation<Void, Never>) in }
    }
  }

  func testLast() { XCTAssertTrue(true) }
}
