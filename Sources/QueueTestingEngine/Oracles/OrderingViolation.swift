/// A broken ordering guarantee: which, on which queue, the items involved, and the expected
/// versus the observed order.
public struct OrderingViolation: Equatable, Sendable, CustomStringConvertible {
  /// The guarantee that failed; nil for a failed check that marks appear in order.
  public var guarantee: Guarantee?
  /// The queue (empty for marks).
  public var queue: String
  /// The items (or marks) involved.
  public var items: [String]
  /// The order the guarantee requires.
  public var expected: [String]
  /// The order that happened.
  public var observed: [String]
  /// The schedule of the run, when the caller knows it (replay it with ``ReplayStrategy``).
  public var schedule: Schedule?

  /// Creates a violation.
  public init(
    guarantee: Guarantee?, queue: String, items: [String], expected: [String], observed: [String],
    schedule: Schedule? = nil
  ) {
    self.guarantee = guarantee
    self.queue = queue
    self.items = items
    self.expected = expected
    self.observed = observed
    self.schedule = schedule
  }

  /// E.g. `fifo-start violated on queue 'q' (items b, a): expected a, b; observed b, a`.
  public var description: String {
    let what = guarantee.map { "\($0.rawValue) violated on queue '\(queue)'" } ?? "marks out of order"
    var text =
      "\(what) (items \(items.joined(separator: ", "))): expected \(expected.joined(separator: ", ")); observed \(observed.joined(separator: ", "))"
    if let schedule { text += "; schedule \(schedule)" }
    return text
  }
}
