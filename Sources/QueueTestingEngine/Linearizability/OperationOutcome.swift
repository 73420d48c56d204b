/// How one operation of a concurrent run ended: what it returned, or what it threw.
public enum OperationOutcome<Value: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
  /// It returned this value.
  case returned(Value)
  /// It threw this error.
  case threw(ThrownError)

  /// The value, or "threw" and the error, as a failure's table shows it.
  public var description: String {
    switch self {
    case .returned(let value): String(describing: value)
    case .threw(let error): "threw \(error)"
    }
  }
}
