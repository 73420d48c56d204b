/// A thread-safe value whose change notifications arrive in exactly the order of the writes.
///
/// Guarding a property with a lock is easy; notifying observers in the right order is not. Notify
/// inside the lock and an observer that reads the property deadlocks; notify after it and two
/// writers racing can deliver their notifications in the opposite order of their writes (the
/// "audit trail" of changes no longer matches the values). `OrderedProperty` appends each change
/// to a delivery line under the same lock as the write, and delivers the line outside the lock:
///
/// ```swift
/// let status = OrderedProperty("idle")
/// let token = status.observe { change in
///   print(change.oldValue, "→", change.newValue)   // in write order, across threads
///   _ = status.value                                // reading here is fine
/// }
/// let changes = status.changes()                    // the same changes, as an AsyncSequence
/// status.value = "loading"
/// status.value = "done"
/// for await change in changes {
///   if change.newValue == "done" { break }          // leaving the loop ends the observation
/// }
/// token.cancel()
/// ```
///
/// - **Order:** every observer receives the changes written after it was added, each once, in
///   write order: a change's `oldValue` is the previous change's `newValue`, and versions are
///   consecutive. Observers of one change are called in the order they were added.
/// - **Where callbacks run:** synchronously, on the thread of a writer, one at a time and never
///   concurrently. A writer that finds delivery in progress on another thread returns at once;
///   that thread delivers its change too, right after the earlier ones.
/// - **Reentrancy:** callbacks run without the lock: they may read the property, write it (the
///   change is delivered after the current one), and add or remove observers.
/// - **Lifetime:** observation lasts until the token's ``ObservationToken/cancel()``, or until
///   the token is released.
public final class OrderedProperty<Value: Sendable>: Sendable {
  typealias Observer = @Sendable (OrderedPropertyChange<Value>) -> Void

  private let state: LockedState<OrderedPropertyStateMachine<Value, Observer>>

  /// Creates a property holding `value`.
  public init(_ value: Value) {
    state = .make(OrderedPropertyStateMachine(value))
  }

  /// The current value. Setting it notifies the observers (see the type's documentation).
  public var value: Value {
    get { state.withLock(\.value) }
    set { write(newValue) }
  }

  /// The number of writes so far (the version of the latest change).
  public var version: UInt64 {
    state.withLock(\.version)
  }

  /// Changes the value in place, as one write: no other write comes between reading and storing.
  /// - Returns: What `body` returned.
  public func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    let (result, mustDeliver) = try state.withLock { state in
      var copy = state.value
      let result = try body(&copy)
      return (result, state.write(copy))
    }
    if mustDeliver { deliver() }
    return result
  }

  /// Calls `observer` with every change written from now on, in write order, until the token is
  /// cancelled or released.
  public func observe(_ observer: @escaping @Sendable (OrderedPropertyChange<Value>) -> Void) -> ObservationToken {
    let id = state.withLock { $0.addObserver(observer) }
    return ObservationToken { [state] in state.withLock { $0.removeObserver(id) } }
  }

  /// The changes written from now on, in write order, as an asynchronous sequence.
  ///
  /// Changes wait in a buffer, as `bufferingPolicy` says, until the loop takes them; leaving the
  /// loop (or releasing a sequence never iterated) ends the observation and frees the buffer.
  /// See ``OrderedPropertyChanges``.
  public func changes(
    bufferingPolicy: AsyncStream<OrderedPropertyChange<Value>>.Continuation.BufferingPolicy = .unbounded
  ) -> OrderedPropertyChanges<Value> {
    let (stream, continuation) = AsyncStream<OrderedPropertyChange<Value>>.makeStream(
      bufferingPolicy: bufferingPolicy)
    let token = observe { change in continuation.yield(change) }
    return OrderedPropertyChanges(
      subscription: OrderedPropertyChanges.Subscription(stream: stream, continuation: continuation, token: token))
  }

  /// How many observers are registered now (``changes(bufferingPolicy:)`` sequences included).
  var observerCount: Int {
    state.withLock(\.observerCount)
  }

  private func write(_ newValue: Value) {
    if state.withLock({ $0.write(newValue) }) { deliver() }
  }

  /// Delivers the line until it is empty. Only one thread delivers at a time (the state machine
  /// hands the job to the writer that found nobody delivering), so callbacks never overlap.
  private func deliver() {
    while let (change, observers) = state.withLock({ $0.nextDelivery() }) {
      for observer in observers { observer(change) }
    }
  }
}
