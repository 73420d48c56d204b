/// A reserved place in a queue's line for work that runs in its own task.
///
/// The place is fixed when the ticket is enqueued (synchronously, in the caller's call); the task
/// that owns it calls ``awaitTurn()``, runs, and calls ``release()`` exactly once.
@usableFromInline
struct TurnTicket: Sendable {
  private typealias Machine = TurnTicketStateMachine<UnsafeContinuation<Void, Never>>
  private let machine = LockedState<Machine>.make(Machine())

  /// Suspends the holder until the drainer lends it the queue's turn.
  ///
  /// Not cancellable on purpose: a cancelled item keeps its place, runs in order and sees
  /// `Task.isCancelled`, so cancelling one item never reorders the others.
  /// Runs in the caller's isolation, so a holder on an actor waits and resumes there, no hop.
  nonisolated(nonsending) func awaitTurn() async {
    if machine.withLock({ $0.claimIfGranted() }) { return }
    await withUnsafeContinuation { (holder: UnsafeContinuation<Void, Never>) in
      switch machine.withLock({ $0.parkHolder(holder) }) {
      case .none: break
      case .resumeHolder: holder.resume()
      }
    }
  }

  /// Lends the turn to the holder and suspends the drainer until the holder gives it back.
  @usableFromInline
  func grantAndAwaitRelease() async {
    await withUnsafeContinuation { (drainer: UnsafeContinuation<Void, Never>) in
      switch machine.withLock({ $0.grant(drainer: drainer) }) {
      case .none: break
      case .resumeHolder(let holder): holder.resume()
      }
    }
  }

  /// Gives the turn back to the drainer.
  func release() {
    machine.withLock { $0.release() }.resume()
  }
}
