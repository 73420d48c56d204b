/// An error an operation threw (or its model says it throws), compared by its type and value:
/// two errors are equal when `String(reflecting:)` spells them alike, which names the type
/// (`MyModule.QueueError.empty`) and, for a struct or an enum with associated values, its fields.
///
/// That is how a checker can compare errors of any type, `Equatable` or not; an error whose
/// description carries something that differs from run to run (an address, a date) never
/// compares equal, so give such an error a stable description or model it as a result.
public struct ThrownError: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The error's type and value, as `String(reflecting:)` gives them.
  public let description: String

  /// The error, kept as its type and value.
  public init(_ error: any Error) {
    description = String(reflecting: error)
  }
}
