/// A plain sequential version of a concurrent type, to check the type's concurrent histories
/// against: a value whose state is `Hashable` and whose operations run one at a time.
///
/// The checker copies the model for every order it tries, so it must be a value type with no
/// reference semantics; two models that compare equal must answer every later operation alike
/// (equal states are explored once).
package protocol SequentialModel: Hashable, Sendable {
  /// An operation with its arguments, such as `.enqueue(1)` or `.dequeue`.
  associatedtype Operation: Sendable
  /// What an operation returns; errors are results too (compare them by type and value).
  associatedtype Result: Equatable & Sendable

  /// Applies `operation` to this state: what it returns, or ``ModelStep/waits`` when, in this
  /// state, the operation would wait for another one (a `dequeue` on an empty queue that
  /// suspends, a semaphore's `wait` with no permit), leaving the state unchanged.
  mutating func apply(_ operation: Operation) -> ModelStep<Result>
}

/// What a sequential model does with one operation.
package enum ModelStep<Result: Equatable & Sendable>: Equatable, Sendable {
  /// The operation completes with this result.
  case returns(Result)
  /// The operation would wait here: it cannot take effect in this state.
  case waits
}
