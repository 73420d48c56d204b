/// Expects `recorder`'s marks to be exactly `expected`, in order; otherwise records a failure at
/// the caller's line (a Swift Testing issue, or an `XCTFail` under XCTest).
///
/// - Returns: Whether the order was as expected.
@discardableResult
public func expectOrder(
  _ recorder: OrderRecorder, _ expected: [String], _ comment: String? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
  let observed = recorder.marks
  guard observed != expected else { return true }
  var message = "Marks out of order: expected \(expected), observed \(observed)"
  if let comment { message += " - \(comment)" }
  FailureReporter.record(message, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  return false
}

#if compiler(>=6.3)
  /// Expects the queues' events of the running controlled run, so far, to keep `guarantees`
  /// (FIFO start, finish and exclusivity; actor-queue start order and first segments; a
  /// concurrent queue's start order, width and barriers, which it learns from the queue). Each
  /// violation is recorded as a failure at the caller's line, naming the queue, the items and
  /// the expected and observed order.
  ///
  /// Call it from the test body after awaiting the work it checks. Outside a controlled run
  /// there are no events to check, and that is recorded as a failure too.
  /// - Returns: Whether every guarantee held.
  @discardableResult
  public func expectQueueGuarantees(
    _ guarantees: Set<Guarantee> = Set(Guarantee.allCases),
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) -> Bool {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let trace = ControlledExecutor.traceSoFar else {
      FailureReporter.record(
        "expectQueueGuarantees(_:) needs a controlled run: use the .controlledScheduling trait", at: site)
      return false
    }
    let violations = OrderingOracle.check(OrderingEvent.events(from: trace), guarantees: guarantees)
    for violation in violations {
      FailureReporter.record("Queue guarantee broken: \(violation)", at: site)
    }
    return violations.isEmpty
  }
#endif
