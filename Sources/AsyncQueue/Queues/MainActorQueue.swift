/// A queue that starts asynchronous work on the main actor in enqueue order, for code written
/// against the 0.6 API (`MainActorQueue.shared.enqueue { }`).
///
/// Items start on the main actor in the order they were enqueued, also when their priorities
/// differ, and run without interruption by later items until their first suspension. An item
/// may `enqueueAndWait` on the queue without deadlocking. This is a face of
/// `MainActor.queue`: both share one order.
public final class MainActorQueue: Sendable {
  /// The queue of the main actor.
  public static let shared = MainActorQueue()

  private let queue: ActorQueue<MainActor>

  private init() {
    queue = MainActor.queue
  }

  /// Enqueues `operation` to run on the main actor and returns at once.
  public func enqueue(_ operation: @escaping @Sendable @MainActor () async -> Void) {
    queue.enqueue { _ in await operation() }
  }

  /// Enqueues `operation` to run on the main actor, waits for it and returns its result.
  ///
  /// An error it throws is rethrown here; cancelling the caller sets `Task.isCancelled` inside it.
  public nonisolated(nonsending) func enqueueAndWait<Result: Sendable, Failure: Error>(
    _ operation: @Sendable @MainActor () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    try await queue.enqueueAndWait { (_: isolated MainActor) async throws(Failure) -> Result in
      try await operation()
    }
  }
}
