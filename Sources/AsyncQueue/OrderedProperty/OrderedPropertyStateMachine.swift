/// The state of an ``OrderedProperty``: its value, its observers, and the changes written but
/// not yet delivered, in write order.
///
/// A pure value: writes append to the delivery line under the same lock that changes the value,
/// which is what makes delivery order equal write order; the caller that starts delivering
/// takes changes one by one with ``nextDelivery()`` and calls the observers without the lock.
struct OrderedPropertyStateMachine<Value, Observer> {
  struct Registration {
    let id: UInt64
    let observer: Observer
    /// Changes up to this version were written before the observer was added.
    let since: UInt64
  }

  private(set) var value: Value
  private(set) var version: UInt64 = 0
  /// In the order they were added (ids only grow), which is the order they are called in.
  private var observers: [Registration] = []
  private var nextObserverID: UInt64 = 0
  private var line: [OrderedPropertyChange<Value>] = []
  private var head = 0
  private var isDelivering = false

  init(_ value: Value) {
    self.value = value
  }

  /// Writes a value; returns true when the caller must deliver (nobody else is delivering).
  mutating func write(_ newValue: Value) -> Bool {
    let change = OrderedPropertyChange(oldValue: value, newValue: newValue, version: version + 1)
    value = newValue
    version += 1
    guard !observers.isEmpty else { return false }
    line.append(change)
    if isDelivering { return false }
    isDelivering = true
    return true
  }

  /// Adds an observer, which receives the changes written from now on; returns its id.
  mutating func addObserver(_ observer: Observer) -> UInt64 {
    nextObserverID += 1
    observers.append(Registration(id: nextObserverID, observer: observer, since: version))
    return nextObserverID
  }

  /// Removes an observer; it receives no change delivered after this.
  var observerCount: Int { observers.count }

  mutating func removeObserver(_ id: UInt64) {
    observers.removeAll { $0.id == id }
  }

  /// The next change to deliver and the observers that receive it, in the order they were
  /// added; nil when the line is empty, and the caller stops delivering.
  mutating func nextDelivery() -> (OrderedPropertyChange<Value>, [Observer])? {
    guard head < line.count else {
      line.removeAll(keepingCapacity: line.count < 64)
      head = 0
      isDelivering = false
      return nil
    }
    let change = line[head]
    head += 1
    let receivers = observers.filter { $0.since < change.version }.map(\.observer)
    return (change, receivers)
  }
}

extension OrderedPropertyStateMachine: Sendable where Value: Sendable, Observer: Sendable {}
extension OrderedPropertyStateMachine.Registration: Sendable where Observer: Sendable {}
