import Dispatch
import Foundation
import QueueTesting
import Testing

// Where code meets threads the harness does not own, and actor code with plain `Task {}`s, as a
// user writes them. `.ci/downstream.sh` checks that the correct code passes every strategy and
// that the bug fails early with a replay line that fails again.

// MARK: A callback due before a sleep ends

/// Set by a Dispatch callback; read after a sleep that, on real threads, the callback always beats.
final class Thermometer: @unchecked Sendable {
  // Written once by the callback, read after the sleep: the lock orders the two.
  private let lock = NSLock()
  private var reading: Double?

  func start() {
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) {
      self.lock.withLock { self.reading = 21.5 }
    }
  }

  var latest: Double? { lock.withLock { reading } }
}

@Test(.controlledScheduling(.random(50)))
func callbackBeatsTheSleepRandom() async throws {
  let thermometer = Thermometer()
  thermometer.start()
  try await Task.sleep(for: .milliseconds(200))
  #expect(thermometer.latest == 21.5)
}

@Test(.controlledScheduling(.pct(50, depth: 3)))
func callbackBeatsTheSleepPCT() async throws {
  let thermometer = Thermometer()
  thermometer.start()
  try await Task.sleep(for: .milliseconds(200))
  #expect(thermometer.latest == 21.5)
}

@Test(.controlledScheduling(.exhaustive(delayBound: nil, budget: 50)))
func callbackBeatsTheSleepExhaustive() async throws {
  let thermometer = Thermometer()
  thermometer.start()
  try await Task.sleep(for: .milliseconds(200))
  #expect(thermometer.latest == 21.5)
}

// MARK: A check-then-act by plain tasks

actor TicketBooth {
  private(set) var ticketsLeft = 1
  private(set) var sold = 0

  func available() -> Int { ticketsLeft }
  func sell() {
    ticketsLeft -= 1
    sold += 1
  }
  func sellIfAvailable() {
    guard ticketsLeft > 0 else { return }
    sell()
  }
}

actor Doorman {
  private(set) var admitted = 0
  func admit() { admitted += 1 }
}

/// Nonisolated work between the check and the act: the buyer leaves the booth for it.
@inline(never)
func wantsTicket(_ left: Int) -> Bool { left > 0 }

/// Two buyers in plain `Task {}`s, each admitted first, then checking and buying in two calls:
/// both can see the last ticket.
@Test(.controlledScheduling(.random(100)))
func buggyBoothSellsTheLastTicketOnce() async {
  let booth = TicketBooth()
  let doorman = Doorman()
  let buyers = (0..<2).map { _ in
    Task {
      await doorman.admit()
      let left = await booth.available()
      if wantsTicket(left) { await booth.sell() }
    }
  }
  for buyer in buyers { await buyer.value }
  #expect(await booth.sold == 1)
}

/// The fix: check and act in one call of the actor.
@Test(.controlledScheduling(.random(100)))
func fixedBoothSellsTheLastTicketOnce() async {
  let booth = TicketBooth()
  let doorman = Doorman()
  let buyers = (0..<2).map { _ in
    Task {
      await doorman.admit()
      await booth.sellIfAvailable()
    }
  }
  for buyer in buyers { await buyer.value }
  #expect(await booth.sold == 1)
}

// MARK: An exhaustive search does not claim what it could not see

/// A reply posted from a Dispatch queue before the task awaiting it suspends: nothing comes back
/// to the run as a job, yet another thread's timing decided the path. The search runs every
/// schedule and does not call the space exhausted.
@Test func exhaustiveSearchDoesNotClaimASpaceWithDispatchWork() async {
  let report = await ControlledScheduling(.exhaustive(delayBound: nil, budget: 100)).run {
    let value = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
      let posted = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        continuation.resume(returning: 7)
        posted.signal()
      }
      posted.wait()
    }
    #expect(value == 7)
  }
  #expect(report.failure == nil)
  #expect(report.exhausted == false)
  #expect(report.outsideWork.handedToDispatch > 0)
}
