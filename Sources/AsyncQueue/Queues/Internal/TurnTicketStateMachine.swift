/// The pure state machine of one ``TurnTicket``: a place in a queue's line, handed from the
/// queue's drainer to a task that runs the work itself (`enqueueAndWait`, `Task(on:)`).
///
/// Two parties meet here, in either order: the *holder* (the waiting task) and the *drainer*
/// (which reaches the ticket in line and lends it the turn). The drainer then stays parked until
/// the holder gives the turn back with ``release()``, as soon as the work has started on the
/// actor (an actor queue's; a FIFO queue's callers wait by numbered place instead).
///
/// Generic over the continuation type so tests can drive it with plain values.
struct TurnTicketStateMachine<Continuation> {
  fileprivate enum State {
    /// Neither party has arrived.
    case waiting
    /// The holder arrived first and is parked.
    case holderParked(Continuation)
    /// The drainer arrived first and is parked; the holder may take the turn without suspending.
    case granted(drainer: Continuation)
    /// The holder runs; the drainer is parked until ``release()``.
    case holding(drainer: Continuation)
    /// The turn was given back.
    case released
  }

  private var state = State.waiting

  /// Called by the holder before it would suspend: takes the turn if the drainer lent it already.
  mutating func claimIfGranted() -> Bool {
    switch state {
    case .granted(let drainer):
      state = .holding(drainer: drainer)
      return true
    case .waiting:
      return false
    case .holderParked, .holding, .released:
      preconditionFailure("TurnTicket: the holder arrived twice")
    }
  }

  enum ParkAction {
    /// Stay parked; the drainer will resume the holder.
    case none
    /// The turn arrived while parking: resume the holder at once.
    case resumeHolder
  }

  /// Parks the holder until the drainer lends it the turn.
  mutating func parkHolder(_ holder: Continuation) -> ParkAction {
    switch state {
    case .waiting:
      state = .holderParked(holder)
      return .none
    case .granted(let drainer):
      state = .holding(drainer: drainer)
      return .resumeHolder
    case .holderParked, .holding, .released:
      preconditionFailure("TurnTicket: the holder arrived twice")
    }
  }

  enum GrantAction {
    /// The holder has not arrived; it will take the turn when it does.
    case none
    /// Resume this parked holder: it now holds the turn.
    case resumeHolder(Continuation)
  }

  /// Called by the drainer when the ticket's turn comes; the drainer parks until ``release()``.
  mutating func grant(drainer: Continuation) -> GrantAction {
    switch state {
    case .waiting:
      state = .granted(drainer: drainer)
      return .none
    case .holderParked(let holder):
      state = .holding(drainer: drainer)
      return .resumeHolder(holder)
    case .granted, .holding, .released:
      preconditionFailure("TurnTicket: the turn was granted twice")
    }
  }

  /// Called by the holder when it gives the turn back; returns the drainer to resume.
  mutating func release() -> Continuation {
    switch state {
    case .holding(let drainer):
      state = .released
      return drainer
    case .waiting, .holderParked, .granted, .released:
      preconditionFailure("TurnTicket: released a turn that was not held")
    }
  }
}

extension TurnTicketStateMachine: Sendable where Continuation: Sendable {}
extension TurnTicketStateMachine.State: Sendable where Continuation: Sendable {}
