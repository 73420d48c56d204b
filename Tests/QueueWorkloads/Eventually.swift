/// Yields until `condition` holds, at most `limit` times; returns whether it held.
///
/// Used only where the runtime needs a few scheduling turns to finish work it has already been
/// handed (a drainer leaving after its last item), never to wait for work to be scheduled.
public func eventually(limit: Int = 100_000, _ condition: () -> Bool) async -> Bool {
  for _ in 0..<limit {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}

/// An error a test's item throws, told apart by its `id`.
public struct TestError: Error, Equatable {
  /// Which error.
  public let id: Int

  /// An error numbered `id`.
  public init(id: Int) {
    self.id = id
  }
}
