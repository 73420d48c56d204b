import Dispatch
import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("LockedState", .timeLimit(.minutes(5)), .hangGuard)
struct LockedStateTests {
  final class Counted: Sendable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }

  /// The state is destroyed exactly once when the box goes away (a double destroy crashed an
  /// earlier version of the box).
  @Test func stateIsDestroyedExactlyOnce() {
    let deinits = LockedState<Int>.make(0)
    for _ in 0..<1000 {
      let box = LockedState<[Counted]>.make([Counted { deinits.withLock { $0 += 1 } }])
      box.withLock { $0.append(Counted { deinits.withLock { $0 += 1 } }) }
    }
    #expect(deinits.withLock { $0 } == 2000)
  }

  /// Increments from many threads are all counted (mutual exclusion).
  @Test func excludesConcurrentAccess() {
    let counter = LockedState<Int>.make(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
    }
    #expect(counter.withLock { $0 } == 80_000)
  }
}
