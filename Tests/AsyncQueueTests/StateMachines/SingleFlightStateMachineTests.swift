import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("SingleFlightStateMachine", .timeLimit(.minutes(5)), .hangGuard)
struct SingleFlightStateMachineTests {
  /// Continuations are waiter names; the operation handle is a name too.
  typealias Machine = SingleFlightStateMachine<String, Int, String, String>

  @Test func firstRequestStartsLaterOnesJoinAndAllGetTheResult() throws {
    var machine = Machine(cachesSuccesses: false)
    let a = machine.makeWaiterID()
    let b = machine.makeWaiterID()
    guard case .startOperation(let flight) = machine.request(key: "k", waiter: a, continuation: "a") else {
      Issue.record("the first request starts the operation")
      return
    }
    guard case .wait = machine.request(key: "k", waiter: b, continuation: "b") else {
      Issue.record("a second request joins")
      return
    }
    let outcome1 = machine.attach("op", key: "k", flight: flight)
    #expect(outcome1)
    let outcome2 = machine.complete(key: "k", flight: flight, succeeded: 7)
    #expect(outcome2 == ["a", "b"])
    // Not cached: the next request starts a new operation.
    let c = machine.makeWaiterID()
    guard case .startOperation(let next) = machine.request(key: "k", waiter: c, continuation: "c") else {
      Issue.record("without caching, the next request starts again")
      return
    }
    #expect(next != flight)
  }

  @Test func successIsCachedUntilForgottenAndFailureIsNot() {
    var machine = Machine(cachesSuccesses: true)
    let a = machine.makeWaiterID()
    guard case .startOperation(let flight) = machine.request(key: "k", waiter: a, continuation: "a") else {
      Issue.record("start expected")
      return
    }
    let outcome3 = machine.complete(key: "k", flight: flight, succeeded: 7)
    #expect(outcome3 == ["a"])
    #expect(machine.cachedValue(for: "k") == 7)
    let b = machine.makeWaiterID()
    guard case .resumeWithValue("b", 7) = machine.request(key: "k", waiter: b, continuation: "b") else {
      Issue.record("a cached value is returned at once")
      return
    }
    machine.forget("k")
    #expect(machine.cachedValue(for: "k") == nil)

    let c = machine.makeWaiterID()
    guard case .startOperation(let second) = machine.request(key: "k", waiter: c, continuation: "c") else {
      Issue.record("after forget, a new operation starts")
      return
    }
    let outcome4 = machine.complete(key: "k", flight: second, succeeded: nil)
    #expect(outcome4 == ["c"])
    #expect(machine.cachedValue(for: "k") == nil)
    #expect(machine.entries.isEmpty)
  }

  /// `forget` during a flight detaches it: a later request starts a new operation, the old one
  /// serves only its own waiters (who may still leave) and caches nothing; the new one caches.
  @Test func forgetDuringAFlightDetachesIt() {
    var machine = Machine(cachesSuccesses: true)
    let a = machine.makeWaiterID()
    let b = machine.makeWaiterID()
    guard case .startOperation(let old) = machine.request(key: "k", waiter: a, continuation: "a") else { return }
    _ = machine.request(key: "k", waiter: b, continuation: "b")
    machine.forget("k")
    // Attached after the forget: the detached flight still takes its task.
    let attachedOld = machine.attach("old", key: "k", flight: old)
    #expect(attachedOld)
    let c = machine.makeWaiterID()
    guard case .startOperation(let new) = machine.request(key: "k", waiter: c, continuation: "c"), new != old else {
      Issue.record("a request after forget joined the operation that began before it")
      return
    }
    guard case .resumeCancelled("a", nil) = machine.cancel(key: "k", waiter: a) else {
      Issue.record("a waiter of the detached flight leaves without cancelling it")
      return
    }
    let oldWaiters = machine.complete(key: "k", flight: old, succeeded: 1)
    #expect(oldWaiters == ["b"])
    #expect(machine.cachedValue(for: "k") == nil, "the forgotten operation's value was cached")
    let newWaiters = machine.complete(key: "k", flight: new, succeeded: 2)
    #expect(newWaiters == ["c"])
    #expect(machine.cachedValue(for: "k") == 2)
    // The last waiter of a detached flight leaving cancels its operation.
    let d = machine.makeWaiterID()
    machine.forget("k")
    guard case .startOperation(let third) = machine.request(key: "k", waiter: d, continuation: "d") else { return }
    let attachedThird = machine.attach("third", key: "k", flight: third)
    #expect(attachedThird)
    machine.forget("k")
    guard case .resumeCancelled("d", "third") = machine.cancel(key: "k", waiter: d) else {
      Issue.record("the last waiter of a detached flight left it running")
      return
    }
    let thirdWaiters = machine.complete(key: "k", flight: third, succeeded: 3)
    #expect(thirdWaiters.isEmpty)
    #expect(machine.entries.isEmpty)
  }

  @Test func cancellingOneOfTwoWaitersKeepsTheOperation() {
    var machine = Machine(cachesSuccesses: false)
    let a = machine.makeWaiterID()
    let b = machine.makeWaiterID()
    guard case .startOperation(let flight) = machine.request(key: "k", waiter: a, continuation: "a") else { return }
    _ = machine.request(key: "k", waiter: b, continuation: "b")
    let outcome5 = machine.attach("op", key: "k", flight: flight)
    #expect(outcome5)
    guard case .resumeCancelled("a", nil) = machine.cancel(key: "k", waiter: a) else {
      Issue.record("the first waiter leaves; the operation is not cancelled")
      return
    }
    let outcome6 = machine.complete(key: "k", flight: flight, succeeded: 1)
    #expect(outcome6 == ["b"])
  }

  @Test func cancellingTheLastWaiterCancelsTheOperationAndFreesTheKey() {
    var machine = Machine(cachesSuccesses: true)
    let a = machine.makeWaiterID()
    guard case .startOperation(let flight) = machine.request(key: "k", waiter: a, continuation: "a") else { return }
    let outcome7 = machine.attach("op", key: "k", flight: flight)
    #expect(outcome7)
    guard case .resumeCancelled("a", "op") = machine.cancel(key: "k", waiter: a) else {
      Issue.record("the last waiter's cancellation cancels the operation")
      return
    }
    // The abandoned operation's late result goes nowhere and is not cached.
    let outcome8 = machine.complete(key: "k", flight: flight, succeeded: 1)
    #expect(outcome8.isEmpty)
    #expect(machine.cachedValue(for: "k") == nil)
  }

  @Test func cancelledBeforeRegisteringFailsOnRegistration() {
    var machine = Machine(cachesSuccesses: false)
    let a = machine.makeWaiterID()
    guard case .none = machine.cancel(key: "k", waiter: a) else {
      Issue.record("nothing to resume yet")
      return
    }
    guard case .resumeCancelled("a") = machine.request(key: "k", waiter: a, continuation: "a") else {
      Issue.record("the request fails at once")
      return
    }
    #expect(machine.entries.isEmpty)
  }

  @Test func attachAfterEveryWaiterLeftTellsTheCallerToCancel() {
    var machine = Machine(cachesSuccesses: false)
    let a = machine.makeWaiterID()
    guard case .startOperation(let flight) = machine.request(key: "k", waiter: a, continuation: "a") else { return }
    guard case .resumeCancelled("a", nil) = machine.cancel(key: "k", waiter: a) else {
      Issue.record("no operation recorded yet")
      return
    }
    let outcome9 = machine.attach("op", key: "k", flight: flight)
    #expect(!outcome9)
  }

  /// Every interleaving of two waiters (each may be cancelled at any point) with the first
  /// operation's start record and end: each waiter is resumed exactly once; an operation whose
  /// result reaches nobody was cancelled; one whose result reaches someone was not cancelled
  /// while it ran.
  @Test func everyInterleavingResumesEachWaiterOnce() {
    enum Step: Hashable {
      case request(Int)
      case cancel(Int)
      case attach
      case complete(Bool)
    }
    var checked = 0
    for cancels in [[], [0], [1], [0, 1]] {
      for succeeds in [true, false] {
        let steps = [Step.request(0), .request(1), .attach, .complete(succeeds)] + cancels.map { Step.cancel($0) }
        orders: for order in permutations(steps) where startsBeforeAttachAndComplete(order) {
          var machine = Machine(cachesSuccesses: false)
          let ids = [machine.makeWaiterID(), machine.makeWaiterID()]
          var resumed = [0, 0]
          var flights: [UInt64] = []
          var delivered: [String]?
          var cancelledAtAll = false
          var cancelledBeforeComplete = false
          func resume(_ continuation: String) { resumed[Int(continuation)!] += 1 }
          func cancelled() {
            cancelledAtAll = true
            if delivered == nil { cancelledBeforeComplete = true }
          }
          for step in order {
            // The operation exists only once a request started it (the request of a waiter
            // cancelled before it registered starts nothing): other orders cannot happen.
            if flights.isEmpty, step == .attach || step == .complete(succeeds) { continue orders }
            switch step {
            case .request(let w):
              switch machine.request(key: "k", waiter: ids[w], continuation: "\(w)") {
              case .startOperation(let flight): flights.append(flight)
              case .wait: break
              case .resumeWithValue(let c, _), .resumeCancelled(let c): resume(c)
              }
            case .cancel(let w):
              if case .resumeCancelled(let c, let operation) = machine.cancel(key: "k", waiter: ids[w]) {
                resume(c)
                if operation != nil && flights.count == 1 { cancelled() }
              }
            case .attach:
              if !machine.attach("op", key: "k", flight: flights[0]) { cancelled() }
            case .complete(let ok):
              delivered = machine.complete(key: "k", flight: flights[0], succeeded: ok ? 1 : nil)
              for continuation in delivered! { resume(continuation) }
            }
          }
          checked += 1
          // A waiter that came after the first flight ended started a second one: end it too.
          for flight in flights.dropFirst() {
            for continuation in machine.complete(key: "k", flight: flight, succeeded: 2) { resume(continuation) }
          }
          #expect(resumed == [1, 1], "\(order)")
          #expect(flights.count <= 2, "\(order)")
          if delivered!.isEmpty {
            #expect(cancelledAtAll, "\(order)")
          } else {
            #expect(!cancelledBeforeComplete, "\(order)")
          }
          #expect(machine.entries.isEmpty, "\(order)")
        }
      }
    }
    #expect(checked > 100)

    func startsBeforeAttachAndComplete(_ order: [Step]) -> Bool {
      let firstRequest = order.firstIndex { if case .request = $0 { true } else { false } }!
      let attach = order.firstIndex(of: .attach)!
      let complete = order.firstIndex { if case .complete = $0 { true } else { false } }!
      return attach > firstRequest && complete > firstRequest
    }
  }
}

/// All orderings of `items` (distinct).
func permutations<T>(_ items: [T]) -> [[T]] {
  guard items.count > 1 else { return [items] }
  var result: [[T]] = []
  for (index, item) in items.enumerated() {
    var rest = items
    rest.remove(at: index)
    for tail in permutations(rest) { result.append([item] + tail) }
  }
  return result
}
