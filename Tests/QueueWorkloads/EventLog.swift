import AsyncQueue

/// A thread-safe, append-only log of events, for asserting orders.
public final class EventLog<Event: Sendable>: Sendable {
  private let events = LockedState<[Event]>.make([])

  /// An empty log.
  public init() {}

  /// Appends `event`.
  public func append(_ event: Event) {
    events.withLock { $0.append(event) }
  }

  /// The events so far, in the order they were appended.
  public var snapshot: [Event] { events.withLock { $0 } }
}
