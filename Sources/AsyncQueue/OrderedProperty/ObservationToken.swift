/// Keeps an observation alive; ``cancel()`` (or releasing the token) ends it.
public final class ObservationToken: Sendable {
  private let onCancel: LockedState<(@Sendable () -> Void)?>

  init(_ onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = .make(onCancel)
  }

  /// Ends the observation: changes whose delivery has not begun when this returns are not
  /// delivered to it (one being delivered on another thread may still arrive). Calling it again
  /// does nothing.
  public func cancel() {
    let action = onCancel.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }

  deinit {
    cancel()
  }
}
