/// The state of a ``SingleFlight``: which keys have an operation in flight (and who waits for
/// it), which have a cached value, and which waiters were cancelled before they could register.
///
/// A pure value: every method returns what its caller must do (resume a continuation, start or
/// cancel the operation) and does none of it. Generic over the continuation and the operation's
/// handle so that tests can drive it with plain values.
struct SingleFlightStateMachine<Key: Hashable, Value, Continuation, Operation> {
  struct Waiter {
    let id: UInt64
    let continuation: Continuation
  }

  struct Flight {
    let id: UInt64
    var waiters: [Waiter]
    /// The running operation, once its task exists (see ``attach(_:key:flight:)``).
    var operation: Operation?
  }

  enum Entry {
    case inFlight(Flight)
    case cached(Value)
  }

  /// What ``request(key:waiter:continuation:)`` asks the caller to do.
  enum RequestAction {
    /// Resume the continuation with the cached value.
    case resumeWithValue(Continuation, Value)
    /// Resume the continuation with a cancellation error: the waiter was cancelled first.
    case resumeCancelled(Continuation)
    /// The waiter joined an operation in flight: nothing to do.
    case wait
    /// The waiter is the first: start the operation for `flight`, then ``attach(_:key:flight:)``.
    case startOperation(flight: UInt64)
  }

  /// What ``cancel(key:waiter:)`` asks the caller to do.
  enum CancelAction {
    /// Nothing: the waiter already had its result, or it will be failed when it registers.
    case none
    /// Resume the continuation with a cancellation error; if `operation` is not nil, nobody else
    /// waits for it: cancel it.
    case resumeCancelled(Continuation, cancelling: Operation?)
  }

  let cachesSuccesses: Bool
  private(set) var entries: [Key: Entry] = [:]
  private var nextID: UInt64 = 0
  /// Waiters handed out by ``makeWaiterID()`` that have not registered yet.
  private var unregistered: Set<UInt64> = []
  /// Waiters cancelled before they registered: they fail as soon as they do.
  private var cancelledBeforeRegistering: Set<UInt64> = []
  /// Flights ``forget(_:)`` took from their key, by id: each goes on for the waiters it has, takes
  /// no new ones and caches nothing, so that a request after the forget runs a new operation.
  private var detached: [UInt64: (key: Key, flight: Flight)] = [:]

  init(cachesSuccesses: Bool) {
    self.cachesSuccesses = cachesSuccesses
  }

  /// A fresh waiter id; the waiter must then ``request(key:waiter:continuation:)`` exactly once.
  mutating func makeWaiterID() -> UInt64 {
    nextID += 1
    unregistered.insert(nextID)
    return nextID
  }

  /// The waiter asks for the value of `key`.
  mutating func request(key: Key, waiter: UInt64, continuation: Continuation) -> RequestAction {
    unregistered.remove(waiter)
    if cancelledBeforeRegistering.remove(waiter) != nil {
      return .resumeCancelled(continuation)
    }
    switch entries[key] {
    case .cached(let value):
      return .resumeWithValue(continuation, value)
    case .inFlight(var flight):
      flight.waiters.append(Waiter(id: waiter, continuation: continuation))
      entries[key] = .inFlight(flight)
      return .wait
    case nil:
      nextID += 1
      entries[key] = .inFlight(Flight(id: nextID, waiters: [Waiter(id: waiter, continuation: continuation)]))
      return .startOperation(flight: nextID)
    }
  }

  /// Records the operation started for `flight`. Returns false when the flight is over already
  /// (every waiter was cancelled, or the operation finished): the caller cancels it, which is
  /// harmless for one that finished.
  mutating func attach(_ operation: Operation, key: Key, flight: UInt64) -> Bool {
    if case .inFlight(var current) = entries[key], current.id == flight {
      current.operation = operation
      entries[key] = .inFlight(current)
      return true
    }
    guard detached[flight] != nil else { return false }
    detached[flight]?.flight.operation = operation
    return true
  }

  /// The waiter's task was cancelled.
  ///
  /// A waiter that is still waiting leaves at once; when it was the last one, the flight ends
  /// and its operation is cancelled, since nobody needs its result. A waiter that has not
  /// registered yet fails when it does.
  mutating func cancel(key: Key, waiter: UInt64) -> CancelAction {
    if unregistered.remove(waiter) != nil {
      cancelledBeforeRegistering.insert(waiter)
      return .none
    }
    if case .inFlight(var flight) = entries[key], let index = flight.waiters.firstIndex(where: { $0.id == waiter }) {
      let leaving = flight.waiters.remove(at: index)
      if flight.waiters.isEmpty {
        entries[key] = nil
        return .resumeCancelled(leaving.continuation, cancelling: flight.operation)
      }
      entries[key] = .inFlight(flight)
      return .resumeCancelled(leaving.continuation, cancelling: nil)
    }
    // A waiter of a flight that `forget` detached.
    guard
      let (id, entry) = detached.first(where: {
        $0.value.key == key && $0.value.flight.waiters.contains { $0.id == waiter }
      })
    else { return .none }
    var flight = entry.flight
    let leaving = flight.waiters.remove(at: flight.waiters.firstIndex { $0.id == waiter }!)
    if flight.waiters.isEmpty {
      detached[id] = nil
      return .resumeCancelled(leaving.continuation, cancelling: flight.operation)
    }
    detached[id] = (key, flight)
    return .resumeCancelled(leaving.continuation, cancelling: nil)
  }

  /// The operation of `flight` ended with `result`: returns the continuations to resume with it.
  ///
  /// A success is cached when the policy says so; a failure leaves no entry, so the next request
  /// starts a new operation. A flight that ended early (all waiters cancelled) gets nothing.
  mutating func complete(key: Key, flight: UInt64, succeeded value: Value?) -> [Continuation] {
    if let entry = detached.removeValue(forKey: flight) {
      // Forgotten while it ran: its waiters get its result, and nothing is cached.
      return entry.flight.waiters.map(\.continuation)
    }
    guard case .inFlight(let current) = entries[key], current.id == flight else { return [] }
    if let value, cachesSuccesses {
      entries[key] = .cached(value)
    } else {
      entries[key] = nil
    }
    return current.waiters.map(\.continuation)
  }

  /// The cached value of `key`, if any.
  func cachedValue(for key: Key) -> Value? {
    if case .cached(let value) = entries[key] { value } else { nil }
  }

  /// Drops the cached value of `key`. An operation in flight goes on for the waiters it has, but
  /// is detached from the key: later requests start a new operation, and its value is not cached.
  mutating func forget(_ key: Key) {
    switch entries[key] {
    case .cached: entries[key] = nil
    case .inFlight(let flight):
      detached[flight.id] = (key, flight)
      entries[key] = nil
    case nil: break
    }
  }
}

extension SingleFlightStateMachine: Sendable
where Key: Sendable, Value: Sendable, Continuation: Sendable, Operation: Sendable {}
extension SingleFlightStateMachine.Waiter: Sendable where Continuation: Sendable {}
extension SingleFlightStateMachine.Flight: Sendable where Continuation: Sendable, Operation: Sendable {}
extension SingleFlightStateMachine.Entry: Sendable
where Value: Sendable, Continuation: Sendable, Operation: Sendable {}
