import QueueTestingEngine

/// A concurrent queue's width and barriers, read from a run's item events (its start order is
/// ``Guarantee/concurrentStart``, checked by `OrderingOracle`):
/// - ``Guarantee/concurrentWidth``: never more items started and not finished than the width;
/// - ``Guarantee/concurrentBarrier``: a barrier starts when no item of its queue runs, and no item
///   starts while it runs (with the start order, every item before it has then finished).
package enum ConcurrencyOracle {
  /// The violations of `guarantees` in `events`, at most one per guarantee and queue.
  package static func check(
    _ events: [OrderingEvent], scenario: Scenario, guarantees: Set<Guarantee>
  ) -> [OrderingViolation] {
    let barriers = Set(
      (scenario.callers.flatMap(\.steps) + scenario.items.flatMap(\.steps)).compactMap { step -> String? in
        if case .enqueue(_, let item, _, _, true) = step.action { return item }
        return nil
      })
    var violations: [OrderingViolation] = []
    for queue in scenario.queues where queue.kind == .concurrent {
      let width = queue.width ?? 1
      var running: [String] = []
      var widthBroken = false
      var barrierBroken = false
      for event in events where event.queue == queue.name {
        switch event.kind {
        case .started:
          let isBarrier = barriers.contains(event.item)
          if !widthBroken && guarantees.contains(.concurrentWidth) && running.count + 1 > width {
            widthBroken = true
            violations.append(
              OrderingViolation(
                guarantee: .concurrentWidth, queue: queue.name, items: running + [event.item],
                expected: ["at most \(width) at once"], observed: running + [event.item]))
          }
          let runningBarrier = running.first { barriers.contains($0) }
          if !barrierBroken && guarantees.contains(.concurrentBarrier) && !running.isEmpty
            && (isBarrier || runningBarrier != nil)
          {
            barrierBroken = true
            let alone = isBarrier ? event.item : runningBarrier!
            violations.append(
              OrderingViolation(
                guarantee: .concurrentBarrier, queue: queue.name, items: running + [event.item],
                expected: ["\(alone) alone"], observed: running + [event.item]))
          }
          running.append(event.item)
        case .finished:
          running.removeAll { $0 == event.item }
        case .enqueued, .suspended:
          break
        }
      }
    }
    return violations
  }
}
