/// A plain sequential version of a concurrent type, to check the type's concurrent histories
/// against: a value whose state is `Hashable` and whose operations run one at a time.
///
/// The checker copies the model for every order it tries, so it must be a value type with no
/// reference semantics; two models that compare equal must answer every later operation alike
/// (equal states are explored once).
///
/// ```swift
/// struct CounterModel: SequentialModel {
///   enum Operation: Hashable, Sendable { case increment, get }
///   var value = 0
///   mutating func apply(_ operation: Operation) -> ModelStep<Int> {
///     if operation == .increment { value += 1 }
///     return .returns(value)
///   }
/// }
/// ```
public protocol SequentialModel: Hashable, Sendable {
  /// An operation with its arguments, such as `.enqueue(1)` or `.dequeue`. Its description
  /// (`String(describing:)`) names it in a failure's table.
  associatedtype Operation: Sendable
  /// What an operation returns (use `Void`-like `Bool` or an empty struct for operations that
  /// return nothing); a thrown error is compared separately (see ``ModelStep/throws(_:)``).
  associatedtype Result: Equatable & Sendable

  /// Applies `operation` to this state: what it returns or throws, or ``ModelStep/waits`` when,
  /// in this state, the operation would wait for another one (a `dequeue` on an empty queue
  /// that suspends, a semaphore's `wait` with no permit), leaving the state unchanged.
  mutating func apply(_ operation: Operation) -> ModelStep<Result>
}

/// What a sequential model does with one operation.
public enum ModelStep<Result: Equatable & Sendable>: Equatable, Sendable {
  /// The operation completes with this result.
  case returns(Result)
  /// The operation throws this error (compared by its type and value: see ``ThrownError``).
  case `throws`(ThrownError)
  /// The operation would wait here: it cannot take effect in this state.
  case waits
  /// The operation does as the step says, or, cancelled, throws `CancellationError` and changes
  /// nothing: an operation that may be cancelled at any point before it takes effect, such as a
  /// semaphore's cancellable wait (`.cancellable(.waits)` when no permit is left) or a `put`
  /// into a full buffer. The model's state after `apply` is the state had it taken effect.
  indirect case cancellable(ModelStep)

  /// The operation throws `error`.
  public static func throwing(_ error: any Error) -> ModelStep {
    .throws(ThrownError(error))
  }

  /// Whether the operation would wait here (and so may still be pending when a run ends).
  package var waits: Bool {
    switch self {
    case .waits: true
    case .cancellable(let step): step.waits
    case .returns, .throws: false
    }
  }

  /// How the run's `outcome` fits this step: as the step's effect, as a cancellation that had no
  /// effect, or not at all.
  package func accepts(_ outcome: OperationOutcome<Result>?) -> Acceptance {
    switch (self, outcome) {
    case (.returns(let expected), .returned(let actual)?): return expected == actual ? .withEffect : .no
    case (.throws(let expected), .threw(let actual)?): return expected == actual ? .withEffect : .no
    case (.cancellable(let step), let outcome?):
      if case .threw(let error) = outcome, error == Self.cancellation { return .withoutEffect }
      return step.accepts(outcome)
    default: return .no
    }
  }

  /// How an outcome fits a step (see ``accepts(_:)``).
  package enum Acceptance {
    case no
    case withEffect
    case withoutEffect
  }

  static var cancellation: ThrownError { ThrownError(CancellationError()) }
}
