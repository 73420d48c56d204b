/// The ordering oracles: pure functions from a run's events to the guarantees it broke.
///
/// The same functions serve unit tests, the Swift Testing helpers and `queue-fuzz`. They check
/// what a run did, not how long it took; a run that stopped early (a deadlock) is checked on
/// the prefix it completed.
package enum OrderingOracle {
  /// Every violation of `guarantees` in `events`, at most one per guarantee and queue.
  ///
  /// FIFO queues are checked for ``Guarantee/fifoStart``, ``Guarantee/fifoFinish`` and
  /// ``Guarantee/fifoExclusive``; actor and main queues for ``Guarantee/actorStart`` and
  /// ``Guarantee/actorFirstSegment``; concurrent queues for ``Guarantee/concurrentStart``,
  /// ``Guarantee/concurrentWidth`` and ``Guarantee/concurrentBarrier``.
  public static func check(
    _ events: [OrderingEvent], guarantees: Set<Guarantee> = Set(Guarantee.allCases)
  ) -> [OrderingViolation] {
    var queues: [String] = []
    var byQueue: [String: [OrderingEvent]] = [:]
    for event in events {
      if byQueue[event.queue] == nil { queues.append(event.queue) }
      byQueue[event.queue, default: []].append(event)
    }
    var violations: [OrderingViolation] = []
    for queue in queues {
      let queueEvents = byQueue[queue]!
      // A completion queue runs one item at a time in order: FIFO's guarantees are its own.
      let isFIFO = queueEvents[0].queueKind == .fifo || queueEvents[0].queueKind == .completion
      let enqueued = queueEvents.filter { $0.kind == .enqueued }.map(\.item)
      let started = queueEvents.filter { $0.kind == .started }.map(\.item)
      let finished = queueEvents.filter { $0.kind == .finished }.map(\.item)
      // A concurrent queue's items overlap and finish in any order: their start is ordered, and
      // its width and barriers bound what runs at once.
      if queueEvents[0].queueKind == .concurrent {
        if guarantees.contains(.concurrentStart),
          let violation = orderViolation(.concurrentStart, queue, enqueued, started)
        {
          violations.append(violation)
        }
        violations += widthAndBarriers(queue, queueEvents, guarantees: guarantees)
        continue
      }
      if guarantees.contains(isFIFO ? .fifoStart : .actorStart),
        let violation = orderViolation(isFIFO ? .fifoStart : .actorStart, queue, enqueued, started)
      {
        violations.append(violation)
      }
      if isFIFO {
        if guarantees.contains(.fifoFinish), let violation = orderViolation(.fifoFinish, queue, enqueued, finished) {
          violations.append(violation)
        }
        if guarantees.contains(.fifoExclusive), let violation = overlap(queue, queueEvents) {
          violations.append(violation)
        }
      } else if guarantees.contains(.actorFirstSegment), let violation = firstSegment(queue, queueEvents) {
        violations.append(violation)
      }
    }
    return violations
  }

  /// Checks that `marks` were recorded (with ``TraceRecorder/mark(_:)``) in this order. Marks
  /// that are missing count as out of order.
  public static func checkMarks(_ trace: Trace, appearInOrder marks: [String]) -> OrderingViolation? {
    let wanted = Set(marks)
    let observed = trace.events.compactMap { event -> String? in
      if case .mark(let label) = event.kind, wanted.contains(label) { return label }
      return nil
    }
    guard observed != marks else { return nil }
    return OrderingViolation(guarantee: nil, queue: "", items: marks, expected: marks, observed: observed)
  }

  /// The items, in the order `happened`, must be the first items of `enqueued`.
  private static func orderViolation(
    _ guarantee: Guarantee, _ queue: String, _ enqueued: [String], _ happened: [String]
  ) -> OrderingViolation? {
    let expected = Array(enqueued.prefix(happened.count))
    guard happened != expected else { return nil }
    // Events written by hand may have an item start that was never enqueued: it is the one
    // involved then, alone.
    let firstDifference = happened.indices.first { $0 >= expected.count || expected[$0] != happened[$0] } ?? 0
    let involved =
      firstDifference < expected.count
      ? [expected[firstDifference], happened[firstDifference]] : [happened[firstDifference]]
    return OrderingViolation(
      guarantee: guarantee, queue: queue, items: involved, expected: expected, observed: happened)
  }

  /// A FIFO item started while another item of its queue had started and not finished.
  private static func overlap(_ queue: String, _ events: [OrderingEvent]) -> OrderingViolation? {
    var running: [String] = []
    for event in events {
      switch event.kind {
      case .started:
        if let current = running.first {
          return OrderingViolation(
            guarantee: .fifoExclusive, queue: queue, items: [current, event.item],
            expected: ["finish \(current)", "start \(event.item)"],
            observed: ["start \(event.item)", "finish \(current)"])
        }
        running.append(event.item)
      case .finished:
        running.removeAll { $0 == event.item }
      case .enqueued, .suspended:
        continue
      }
    }
    return nil
  }

  /// Between an actor-queue item's start and its first suspension (or finish), nothing of
  /// another item of the same queue happened.
  private static func firstSegment(_ queue: String, _ events: [OrderingEvent]) -> OrderingViolation? {
    var inFirstSegment: String?
    for event in events where event.kind != .enqueued {
      if let current = inFirstSegment, event.item != current {
        return OrderingViolation(
          guarantee: .actorFirstSegment, queue: queue, items: [current, event.item],
          expected: ["\(current) reaches its first suspension", "\(event.kind.rawValue) \(event.item)"],
          observed: ["\(event.kind.rawValue) \(event.item)", "\(current) reaches its first suspension"])
      }
      switch event.kind {
      case .started: inFirstSegment = event.item
      case .suspended, .finished: if inFirstSegment == event.item { inFirstSegment = nil }
      case .enqueued: continue
      }
    }
    return nil
  }
}
