import AsyncQueue

/// A named suspension point: code under test awaits ``wait()``, the test calls ``open()``.
///
/// Opening and waiting may happen in either order, from any thread, sync or async: a gate that
/// is already open lets waiters through at once, and opening wakes every waiter. A gate opens
/// once and stays open. Under ``ControlledExecutor``, a task waiting at a gate that nothing opens
/// appears in the ``DeadlockReport`` as `waits at gate 'name'`, instead of hanging the test.
///
/// ```swift
/// let loaded = TestGate("loaded")
/// let task = Task { await loaded.wait(); return cache.value }
/// cache.value = 42
/// loaded.open()
/// #expect(await task.value == 42)
/// ```
public final class TestGate: Sendable {
  /// The gate's name, as reports show it.
  public let name: String

  private enum State {
    case closed([UnsafeContinuation<Void, Never>])
    case open
  }

  private let state = LockedState<State>(.closed([]))

  /// Creates a closed gate.
  public init(_ name: String) {
    self.name = name
  }

  /// Whether ``open()`` was called.
  public var isOpen: Bool {
    state.withLock { if case .open = $0 { true } else { false } }
  }

  /// Suspends until the gate is open; returns at once if it is. Cancellation does not end the
  /// wait (a test decides when code under test goes on).
  public func wait() async {
    if isOpen { return }
    #if compiler(>=6.3)
      let recorded = ControlledExecutor.beginNamedWait("gate '\(name)'")
    #endif
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let resumeNow = state.withLock { state in
        switch state {
        case .open:
          return true
        case .closed(var waiters):
          waiters.append(continuation)
          state = .closed(waiters)
          return false
        }
      }
      if resumeNow { continuation.resume() }
    }
    #if compiler(>=6.3)
      if recorded { ControlledExecutor.endNamedWait() }
    #endif
  }

  /// Opens the gate and resumes every waiter, in the order they arrived. Opening twice is
  /// harmless.
  public func open() {
    let waiters = state.withLock { state in
      defer { state = .open }
      if case .closed(let waiters) = state { return waiters }
      return []
    }
    for waiter in waiters { waiter.resume() }
  }
}
