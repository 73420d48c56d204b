import Synchronization

/// Stands in for `XCTestExpectation` in the ported tests: `fulfill()` once, and
/// `await fulfillment()` returns once it was fulfilled. A port that kept XCTest's
/// `fulfillment(of:timeout:)` would block a thread on real time; the harness reports a wait that
/// never ends as a deadlock instead of a timeout.
final class Expectation: Sendable {
  private let state = Mutex<(fulfilled: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  init(description: String) {}

  func fulfill() {
    let waiters = state.withLock { state in
      state.fulfilled = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func fulfillment() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state in
        if state.fulfilled { return true }
        state.waiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }
}
