extension OrderingOracle {
  /// A concurrent queue's width and barriers, from its events (each carries the queue's width
  /// and whether its item is a barrier):
  /// - ``Guarantee/concurrentWidth``: never more items started and not finished than the width;
  /// - ``Guarantee/concurrentBarrier``: a barrier starts when no item of its queue runs, and no
  ///   item starts while it runs (with the start order, every item before it has then finished).
  static func widthAndBarriers(
    _ queue: String, _ events: [OrderingEvent], guarantees: Set<Guarantee>
  ) -> [OrderingViolation] {
    var violations: [OrderingViolation] = []
    var running: [(item: String, isBarrier: Bool)] = []
    var widthBroken = !guarantees.contains(.concurrentWidth)
    var barrierBroken = !guarantees.contains(.concurrentBarrier)
    for event in events {
      switch event.kind {
      case .started:
        let names = running.map(\.item) + [event.item]
        if !widthBroken, let width = event.queueWidth, running.count + 1 > width {
          widthBroken = true
          violations.append(
            OrderingViolation(
              guarantee: .concurrentWidth, queue: queue, items: names, expected: ["at most \(width) at once"],
              observed: names))
        }
        let runningBarrier = running.first(where: \.isBarrier)?.item
        if !barrierBroken, !running.isEmpty, let alone = event.isBarrier ? event.item : runningBarrier {
          barrierBroken = true
          violations.append(
            OrderingViolation(
              guarantee: .concurrentBarrier, queue: queue, items: names, expected: ["\(alone) alone"],
              observed: names))
        }
        running.append((event.item, event.isBarrier))
      case .finished:
        running.removeAll { $0.item == event.item }
      case .enqueued, .suspended:
        break
      }
    }
    return violations
  }
}
