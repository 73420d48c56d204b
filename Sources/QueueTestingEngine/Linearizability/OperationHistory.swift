/// What the operations of one concurrent run did: for each, the task that called it, its
/// arguments, its result, and when it was invoked and when it returned, as points in one order
/// of the run's events (a counter both ends draw from).
package struct OperationHistory<Operation: Sendable, Result: Equatable & Sendable>: Sendable {
  /// One operation of the history.
  package struct Record: Sendable {
    /// The task (scenario column) that called it.
    package var task: Int
    /// The operation and its arguments.
    package var operation: Operation
    /// What it returned or threw; nil while it is pending (it had not returned when the run ended).
    package var outcome: OperationOutcome<Result>?
    /// When it was invoked.
    package var invocation: Int
    /// When it returned; nil while it is pending.
    package var response: Int?

    package init(task: Int, operation: Operation, outcome: OperationOutcome<Result>?, invocation: Int, response: Int?) {
      self.task = task
      self.operation = operation
      self.outcome = outcome
      self.invocation = invocation
      self.response = response
    }

    /// An operation that returned `result` (nil: pending).
    package init(task: Int, operation: Operation, result: Result?, invocation: Int, response: Int?) {
      self.init(
        task: task, operation: operation, outcome: result.map { .returned($0) }, invocation: invocation,
        response: response)
    }

    /// Whether it had not returned when the run ended.
    package var isPending: Bool { response == nil }
  }

  /// The operations, in any order; the checker names them by their index here.
  package var records: [Record]

  package init(_ records: [Record] = []) {
    self.records = records
  }
}
