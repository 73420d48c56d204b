/// Suspends the current task like `withCheckedContinuation`, and under ``ControlledExecutor``
/// records the wait by `name`: if nothing resumes the continuation, the ``DeadlockReport`` says
/// `waits at continuation 'name'` instead of the run hanging.
///
/// Outside a controlled run it behaves exactly like `withCheckedContinuation`.
public func withNamedContinuation<Value>(
  _ name: String,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (CheckedContinuation<Value, Never>) -> Void
) async -> sending Value {
  #if compiler(>=6.3)
    let recorded = ControlledExecutor.beginNamedWait("continuation '\(name)'")
    defer { if recorded { ControlledExecutor.endNamedWait() } }
  #endif
  return await withCheckedContinuation(isolation: isolation, function: name, body)
}

/// Suspends the current task like `withCheckedThrowingContinuation`, and under
/// ``ControlledExecutor`` records the wait by `name`, as ``withNamedContinuation(_:isolation:_:)``
/// does: a throwing wait (one a cancellation handler resumes with `CancellationError`, say) that
/// nothing resumes shows in the ``DeadlockReport`` as `waits at continuation 'name'`.
///
/// Outside a controlled run it behaves exactly like `withCheckedThrowingContinuation`.
public func withNamedThrowingContinuation<Value>(
  _ name: String,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (CheckedContinuation<Value, any Error>) -> Void
) async throws -> sending Value {
  #if compiler(>=6.3)
    let recorded = ControlledExecutor.beginNamedWait("continuation '\(name)'")
    defer { if recorded { ControlledExecutor.endNamedWait() } }
  #endif
  return try await withCheckedThrowingContinuation(isolation: isolation, function: name, body)
}
