import AsyncQueue
import QueueTestingEngine
import QueueWorkloads
import Testing

@Suite("Ordering oracles", .timeLimit(.minutes(5)), .hangGuard)
struct OrderingOracleTests {
  static func fifo(_ kind: OrderingEvent.Kind, _ item: String) -> OrderingEvent {
    OrderingEvent(kind, queue: "q", queueKind: .fifo, item: item)
  }

  static func actor(_ kind: OrderingEvent.Kind, _ item: String) -> OrderingEvent {
    OrderingEvent(kind, queue: "a", queueKind: .actor, item: item)
  }

  @Test func fifoInOrderWithoutOverlapSatisfiesAll() {
    let events = [
      Self.fifo(.enqueued, "x"), Self.fifo(.enqueued, "y"), Self.fifo(.started, "x"), Self.fifo(.suspended, "x"),
      Self.fifo(.finished, "x"), Self.fifo(.started, "y"), Self.fifo(.finished, "y"),
    ]
    #expect(OrderingOracle.check(events).isEmpty)
  }

  @Test func fifoStartOutOfOrderIsNamed() {
    let events = [
      Self.fifo(.enqueued, "x"), Self.fifo(.enqueued, "y"), Self.fifo(.started, "y"), Self.fifo(.finished, "y"),
      Self.fifo(.started, "x"), Self.fifo(.finished, "x"),
    ]
    let violations = OrderingOracle.check(events)
    #expect(violations.map(\.guarantee) == [.fifoStart, .fifoFinish])
    #expect(violations[0].expected == ["x", "y"])
    #expect(violations[0].observed == ["y", "x"])
    #expect(violations[0].items == ["x", "y"])
    #expect(violations[0].description == "fifo-start violated on queue 'q' (items x, y): expected x, y; observed y, x")
  }

  @Test func fifoOverlapIsCaughtEvenWhenStartOrderHolds() {
    let events = [
      Self.fifo(.enqueued, "x"), Self.fifo(.enqueued, "y"), Self.fifo(.started, "x"), Self.fifo(.suspended, "x"),
      Self.fifo(.started, "y"), Self.fifo(.finished, "x"), Self.fifo(.finished, "y"),
    ]
    let violations = OrderingOracle.check(events)
    #expect(violations.map(\.guarantee) == [.fifoExclusive])
    #expect(violations[0].items == ["x", "y"])
  }

  @Test func fifoFinishOrderAlone() {
    let events = [
      Self.fifo(.enqueued, "x"), Self.fifo(.enqueued, "y"), Self.fifo(.started, "x"), Self.fifo(.started, "y"),
      Self.fifo(.finished, "y"), Self.fifo(.finished, "x"),
    ]
    #expect(OrderingOracle.check(events, guarantees: [.fifoFinish]).map(\.guarantee) == [.fifoFinish])
    #expect(OrderingOracle.check(events, guarantees: [.fifoStart]).isEmpty)
  }

  /// A completion queue runs one item at a time in order: it is judged by FIFO's guarantees, so
  /// an item that starts before the one ahead finished is a violation (which an actor queue's
  /// rules, allowing interleaving after a suspension, would let through).
  @Test func completionQueuesAreJudgedAsFIFO() {
    func completion(_ kind: OrderingEvent.Kind, _ item: String) -> OrderingEvent {
      OrderingEvent(kind, queue: "c", queueKind: .completion, item: item)
    }
    let events = [
      completion(.enqueued, "x"), completion(.enqueued, "y"), completion(.started, "x"), completion(.suspended, "x"),
      completion(.started, "y"), completion(.finished, "y"), completion(.finished, "x"),
    ]
    #expect(OrderingOracle.check(events).map(\.guarantee) == [.fifoFinish, .fifoExclusive])
  }

  @Test func actorQueuesMayInterleaveAfterTheFirstSuspension() {
    let events = [
      Self.actor(.enqueued, "x"), Self.actor(.enqueued, "y"), Self.actor(.started, "x"), Self.actor(.suspended, "x"),
      Self.actor(.started, "y"), Self.actor(.finished, "y"), Self.actor(.finished, "x"),
    ]
    #expect(OrderingOracle.check(events).isEmpty)
  }

  @Test func actorStartOrderAndFirstSegment() {
    let reordered = [
      Self.actor(.enqueued, "x"), Self.actor(.enqueued, "y"), Self.actor(.started, "y"), Self.actor(.finished, "y"),
      Self.actor(.started, "x"), Self.actor(.finished, "x"),
    ]
    #expect(OrderingOracle.check(reordered).map(\.guarantee) == [.actorStart])
    let interrupted = [
      Self.actor(.enqueued, "x"), Self.actor(.enqueued, "y"), Self.actor(.started, "x"), Self.actor(.started, "y"),
      Self.actor(.suspended, "x"), Self.actor(.finished, "y"), Self.actor(.finished, "x"),
    ]
    let violations = OrderingOracle.check(interrupted)
    #expect(violations.map(\.guarantee) == [.actorFirstSegment])
    #expect(violations[0].items == ["x", "y"])
  }

  @Test func anIncompleteRunIsCheckedOnItsPrefix() {
    let events = [Self.fifo(.enqueued, "x"), Self.fifo(.enqueued, "y"), Self.fifo(.started, "x")]
    #expect(OrderingOracle.check(events).isEmpty)
  }

  @Test func marksInOrder() {
    let trace = Trace(events: [
      Trace.Event(step: 1, task: 1, kind: .mark("a"), virtualTime: 0),
      Trace.Event(step: 1, task: 2, kind: .mark("other"), virtualTime: 0),
      Trace.Event(step: 2, task: 2, kind: .mark("b"), virtualTime: 0),
    ])
    #expect(OrderingOracle.checkMarks(trace, appearInOrder: ["a", "b"]) == nil)
    let violation = OrderingOracle.checkMarks(trace, appearInOrder: ["b", "a"])
    #expect(violation?.observed == ["a", "b"])
    #expect(OrderingOracle.checkMarks(trace, appearInOrder: ["a", "missing"])?.observed == ["a"])
  }

  #if compiler(>=6.3)
    /// The oracles read the queues' own events from a controlled run's trace.
    @available(ExecutorHooks 1.0, *)
    @Test func queueEventsFromARealRunSatisfyTheOracles() {
      let result = ControlledExecutor.runBlocking(seed: 9) {
        let queue = FIFOQueue(name: "q")
        for _ in 0..<5 { queue.enqueue { await Task.yield() } }
        await queue.enqueueAndWait {}
      }
      let events = OrderingEvent.events(from: result.trace)
      #expect(events.filter { $0.kind == .started }.map(\.item) == (1...6).map { "q#\($0)" })
      #expect(OrderingOracle.check(events).isEmpty)
    }
  #endif
}
