extension MainActor {
  /// The process-wide actor queue of the main actor: `Task(on: MainActor.queue) { }` starts
  /// work on the main actor in the order it was created, from any context.
  ///
  /// ``MainActorQueue/shared`` enqueues onto this same queue, so both styles share one order.
  public static var queue: ActorQueue<MainActor> { mainActorQueue }
}

/// Created lazily and thread-safely (a global `let`), adopted once, alive for the process.
private let mainActorQueue: ActorQueue<MainActor> = {
  let queue = ActorQueue<MainActor>()
  queue.adoptExecutionContext(of: MainActor.shared)
  return queue
}()
