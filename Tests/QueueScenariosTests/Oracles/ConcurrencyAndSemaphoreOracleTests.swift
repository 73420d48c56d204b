import QueueScenarios
import QueueTestingEngine
import QueueWorkloads
import Testing

/// The oracles of concurrent queues and semaphores, on events written by hand: each catches the
/// violation it names, and none cries wolf where events only lag behind what happened.
@Suite("Concurrency and semaphore oracles", .timeLimit(.minutes(5)), .hangGuard)
struct ConcurrencyAndSemaphoreOracleTests {
  static let all = Set(Guarantee.allCases)

  static func semaphoreEvents(_ kinds: [(SemaphoreEvent.Kind, String)]) -> [SemaphoreEvent] {
    kinds.map { SemaphoreEvent($0.0, semaphore: $0.0 == .taskCancelled ? "" : "s", owner: $0.1) }
  }

  static func check(_ kinds: [(SemaphoreEvent.Kind, String)], permits: Int) -> [OrderingViolation] {
    SemaphoreOracle.check(
      semaphoreEvents(kinds), semaphores: [Scenario.Semaphore(name: "s", value: permits)], guarantees: all)
  }

  /// A later waiter that takes the only permit while an earlier one waits breaks FIFO.
  @Test func aWaiterOvertakenIsCaught() {
    let violations = Self.check(
      [(.began(id: 1), "a"), (.began(id: 2), "b"), (.released, "x"), (.acquired(id: 2), "b")], permits: 0)
    #expect(violations.map(\.guarantee) == [Guarantee.semaphoreFIFO])
    #expect(violations.first?.items == ["a", "b"])
  }

  /// Two signals granted both waiters; the later one's task went on first: not a violation.
  @Test func aGrantRecordedLateIsNotAViolation() {
    let violations = Self.check(
      [
        (.began(id: 1), "a"), (.began(id: 2), "b"), (.released, "x"), (.released, "x"), (.acquired(id: 2), "b"),
        (.acquired(id: 1), "a"), (.ended(freePermits: 0), ""),
      ], permits: 0)
    #expect(violations.isEmpty, "\(violations)")
  }

  /// A waiter whose task may have been cancelled may have left the line: not counted ahead.
  @Test func aWaiterThatMayHaveLeftIsNotCountedAhead() {
    let violations = Self.check(
      [
        (.began(id: 1), "a"), (.began(id: 2), "b"), (.taskCancelled, "a"), (.released, "x"), (.acquired(id: 2), "b"),
        (.cancelled(id: 1), "a"), (.ended(freePermits: 0), ""),
      ], permits: 0)
    #expect(violations.isEmpty, "\(violations)")
  }

  /// A permit taken that was never there, and a permit missing at the end, break the permits.
  @Test func doubledAndLostPermitsAreCaught() {
    let doubled = Self.check([(.began(id: 1), "a"), (.acquired(id: 1), "a")], permits: 0)
    #expect(doubled.map(\.guarantee) == [Guarantee.semaphorePermits])
    let lost = Self.check([(.began(id: 1), "a"), (.cancelled(id: 1), "a"), (.ended(freePermits: 0), "")], permits: 1)
    #expect(lost.map(\.guarantee) == [Guarantee.semaphorePermits])
    #expect(lost.first?.observed.first?.contains("lost") == true)
    let extra = Self.check([(.released, "a"), (.ended(freePermits: 3), "")], permits: 1)
    #expect(extra.first?.observed.first?.contains("doubled") == true)
  }

  /// Events of a queue of width 2 whose item `b` is a barrier.
  static func events(_ kinds: [(OrderingEvent.Kind, String)]) -> [OrderingEvent] {
    kinds.map {
      OrderingEvent($0.0, queue: "q", queueKind: .concurrent, item: $0.1, queueWidth: 2, isBarrier: $0.1 == "b")
    }
  }

  /// What the oracle finds in `kinds`, after the enqueues of `a`, `b`, `c` and `d`.
  static func guarantees(_ kinds: [(OrderingEvent.Kind, String)]) -> [Guarantee?] {
    let enqueues = ["a", "b", "c", "d"].map { (OrderingEvent.Kind.enqueued, $0) }
    return OrderingOracle.check(events(enqueues + kinds), guarantees: all).map(\.guarantee)
  }

  /// An item that starts without an enqueue (events written by hand) is a start-order violation
  /// that names it, not a crash.
  @Test func anItemNeverEnqueuedIsNamed() {
    let violations = OrderingOracle.check(Self.events([(.started, "x")]), guarantees: Self.all)
    #expect(violations.map(\.guarantee) == [Guarantee.concurrentStart])
    #expect(violations.first?.items == ["x"])
  }

  /// Three items at once on a queue of width 2, and items beside a barrier, are caught; the
  /// same items one after another are not.
  @Test func widthAndBarrierViolationsAreCaught() {
    // Out of start order too (b never started): both guarantees are broken.
    #expect(
      Self.guarantees([(.started, "a"), (.started, "c"), (.started, "d")]) == [.concurrentStart, .concurrentWidth])
    #expect(Self.guarantees([(.started, "a"), (.started, "b")]) == [.concurrentBarrier])
    #expect(
      Self.guarantees([(.started, "a"), (.finished, "a"), (.started, "b"), (.started, "c")]) == [.concurrentBarrier])
    #expect(
      Self.guarantees([(.started, "a"), (.finished, "a"), (.started, "b"), (.finished, "b"), (.started, "c")]).isEmpty)
  }
}
