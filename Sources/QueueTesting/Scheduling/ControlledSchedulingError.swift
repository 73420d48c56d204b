/// A configuration of ``ControlledScheduling`` that cannot be used, with the reason.
public struct ControlledSchedulingError: Error, Equatable, CustomStringConvertible {
  /// What was wrong and what was expected.
  public var message: String

  /// A description of the error.
  public var description: String { message }
}
