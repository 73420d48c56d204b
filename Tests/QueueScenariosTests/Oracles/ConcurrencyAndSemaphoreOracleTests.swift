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

  /// A queue of width 2 whose item `b` is a barrier.
  static let pool = try! ScenarioParser.parse(
    "scenario 1\nqueue q concurrent 2\ncaller c sync\n  enqueue q a\n  enqueue q b barrier\n  enqueue q c\n"
      + "  enqueue q d\nitem a\nitem b\nitem c\nitem d\n", path: "pool.scenario")

  static func events(_ kinds: [(OrderingEvent.Kind, String)]) -> [OrderingEvent] {
    kinds.map { OrderingEvent($0.0, queue: "q", queueKind: .concurrent, item: $0.1) }
  }

  /// Three items at once on a queue of width 2, and items beside a barrier, are caught; the
  /// same items one after another are not.
  @Test func widthAndBarrierViolationsAreCaught() {
    let tooWide = ConcurrencyOracle.check(
      Self.events([(.started, "a"), (.started, "c"), (.started, "d")]), scenario: Self.pool, guarantees: Self.all)
    #expect(tooWide.map(\.guarantee) == [Guarantee.concurrentWidth])
    let besideBarrier = ConcurrencyOracle.check(
      Self.events([(.started, "a"), (.started, "b")]), scenario: Self.pool, guarantees: Self.all)
    #expect(besideBarrier.map(\.guarantee) == [Guarantee.concurrentBarrier])
    let duringBarrier = ConcurrencyOracle.check(
      Self.events([(.started, "b"), (.started, "c")]), scenario: Self.pool, guarantees: Self.all)
    #expect(duringBarrier.map(\.guarantee) == [Guarantee.concurrentBarrier])
    let inTurn = ConcurrencyOracle.check(
      Self.events([(.started, "a"), (.finished, "a"), (.started, "b"), (.finished, "b"), (.started, "c")]),
      scenario: Self.pool, guarantees: Self.all)
    #expect(inTurn.isEmpty)
  }
}
