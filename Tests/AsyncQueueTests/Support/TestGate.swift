@testable import AsyncQueue

/// A one-shot gate for tests: tasks `wait()` until the test `open()`s it, in either order.
/// Lets a test hold an item mid-flight and release it exactly when it chooses, with no sleeps.
final class TestGate: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [UnsafeContinuation<Void, Never>] = []
  }
  private let state = LockedState<State>.make(.init())

  func wait() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let resumeNow = state.withLock { state in
        if state.isOpen { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// A thread-safe append-only log of events, for asserting orders.
final class EventLog<Event: Sendable>: Sendable {
  private let events = LockedState<[Event]>.make([])

  func append(_ event: Event) {
    events.withLock { $0.append(event) }
  }

  var snapshot: [Event] { events.withLock { $0 } }
}

/// Counts concurrently running items and remembers the maximum, to prove "never overlap".
final class OverlapMeter: Sendable {
  private let counts = LockedState<(running: Int, maximum: Int)>.make((0, 0))

  func enter() {
    counts.withLock {
      $0.running += 1
      $0.maximum = max($0.maximum, $0.running)
    }
  }

  func leave() {
    counts.withLock { $0.running -= 1 }
  }

  var maximum: Int { counts.withLock { $0.maximum } }
}

/// Yields until `condition` holds, at most `limit` times; returns whether it held.
/// Used only where the runtime needs a few scheduling turns to finish work it has already been
/// handed (a drainer leaving after its last item), never to wait for work to be scheduled.
func eventually(limit: Int = 100_000, _ condition: () -> Bool) async -> Bool {
  for _ in 0..<limit {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}

struct TestError: Error, Equatable {
  let id: Int
}
