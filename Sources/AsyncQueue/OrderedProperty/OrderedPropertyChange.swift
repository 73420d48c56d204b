/// One write to an ``OrderedProperty``, as its observers receive it.
public struct OrderedPropertyChange<Value> {
  /// The value before the write.
  public let oldValue: Value
  /// The value the write stored.
  public let newValue: Value
  /// The write's number: 1 for the first write, one more for each write after it. Observers
  /// receive consecutive versions (from the first write after they were added).
  public let version: UInt64

  /// Creates a change (for tests and stand-ins; properties create their own).
  public init(oldValue: Value, newValue: Value, version: UInt64) {
    self.oldValue = oldValue
    self.newValue = newValue
    self.version = version
  }
}

extension OrderedPropertyChange: Sendable where Value: Sendable {}
extension OrderedPropertyChange: Equatable where Value: Equatable {}
