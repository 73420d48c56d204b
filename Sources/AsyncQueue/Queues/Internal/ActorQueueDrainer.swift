/// A type-erased actor-queue item: the user's operation, bound to run on the adopted actor.
///
/// A struct around the closure, not the bare function type: a closure stored as a generic value
/// is reabstracted through a heap-allocated thunk.
struct ActorQueueJob: Sendable {
  let run: @Sendable (isolated any Actor) async -> Void
}

/// The drain loop of every ``ActorQueue``, whatever its actor type.
enum ActorQueueDrainer {
  /// Runs on the actor until no entry is left, starting each entry in order.
  ///
  /// Deliberately not generic: it runs isolated to `any Actor` and walks type-erased jobs, so it
  /// is compiled once, specialized, inside this module. Unspecialized generic code paid runtime
  /// metadata lookups on every item when the queue's actor type lives in another module.
  static func drain(
    _ storage: SerialDrainStorage<ActorQueueJob>,
    on actor: isolated any Actor,
    immediately: Bool
  ) async {
    var batch: [[SerialDrainStorage<ActorQueueJob>.Entry]] = []
    while storage.nextBatch(into: &batch) {
      for index in batch.indices {
        for entry in batch[index] {
          switch entry {
          case .job(let job):
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *), immediately {
              // Runs the job's first segment right here, on the actor, before the next job:
              // no enqueue on the actor's priority-ordered job queue, so priorities cannot reorder.
              Task.immediate { [actor] in await job.run(actor) }
            } else {
              await startInNewTask(job, on: actor)
            }
          case .ticket(let ticket):
            await ticket.grantAndAwaitRelease()
          }
        }
        batch[index] = []
      }
    }
  }

  /// The portable way to start a job in order: a new task signals from the actor that it has
  /// started, and the drainer waits for that signal. The drainer's resumption needs the actor,
  /// which the job holds until its first suspension.
  private static func startInNewTask(_ job: ActorQueueJob, on actor: isolated any Actor) async {
    await withUnsafeContinuation { (started: UnsafeContinuation<Void, Never>) in
      Task { [actor] in
        await runSignallingStart(job, on: actor, started: started)
      }
    }
  }

  private static func runSignallingStart(
    _ job: ActorQueueJob,
    on actor: isolated any Actor,
    started: UnsafeContinuation<Void, Never>
  ) async {
    started.resume()
    await job.run(actor)
  }
}
