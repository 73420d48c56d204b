/// The storage of a ``ConcurrentQueue``: the lock around its ``ConcurrentQueueStateMachine``, and
/// the actions the machine returns, performed outside the lock (starting a worker task, resuming
/// the holder of a granted place).
///
/// Pending items hold the storage, never the queue: releasing the queue drops no work.
struct ConcurrentQueueStorage: Sendable {
  /// A closure a worker runs. Not the bare function type: a closure stored as a generic value is
  /// reabstracted through a heap-allocated thunk, one malloc per item.
  struct Job: Sendable {
    let run: @Sendable () async -> Void
  }

  typealias Machine = ConcurrentQueueStateMachine<Job, UnsafeContinuation<Void, Never>>

  /// How work that runs in its own task holds its place: its place (nil: it was granted at
  /// once), whether it must tell the queue it began (see ``ConcurrentQueueStateMachine/began()``),
  /// whether it is a barrier, and the item as a QueueTesting observer sees it.
  struct Reservation: Sendable {
    let place: UInt64?
    let beginsLater: Bool
    let isBarrier: Bool
    let item: ObservedQueueItem?
  }

  let machine: LockedState<Machine>
  /// The priority of the worker tasks.
  let priority: TaskPriority?

  init(width: Int, priority: TaskPriority?) {
    machine = .make(Machine(width: width))
    self.priority = priority
  }

  /// Puts `job` in line; starts a worker if it may begin at once.
  func enqueue(_ job: Job, barrier: Bool) {
    perform(machine.withLock { $0.enqueue(job, barrier: barrier) })
  }

  /// Reserves a place for work that runs in the caller's task (`beginsNow`) or in a task that
  /// runs later.
  func reserve(barrier: Bool, beginsNow: Bool, item: ObservedQueueItem?) -> Reservation {
    switch machine.withLock({ $0.reserve(barrier: barrier, beginsNow: beginsNow) }) {
    case .started: Reservation(place: nil, beginsLater: !beginsNow, isBarrier: barrier, item: item)
    case .place(let place): Reservation(place: place, beginsLater: true, isBarrier: barrier, item: item)
    }
  }

  /// Suspends until the reserved item is granted. Not cancellable on purpose: a cancelled item
  /// keeps its place and runs in its turn with `Task.isCancelled` set, so cancelling one item
  /// never reorders the others.
  nonisolated(nonsending) func awaitStart(_ reservation: Reservation) async {
    guard let place = reservation.place else { return }
    if machine.withLock({ $0.claim(place) }) { return }
    await withUnsafeContinuation { (holder: UnsafeContinuation<Void, Never>) in
      if machine.withLock({ $0.park(place, holder) }) { holder.resume() }
    }
  }

  /// Runs `operation` in the caller's task once the reserved item may start, and finishes the
  /// item when it returns or throws.
  nonisolated(nonsending) func run<Success, Failure: Error>(
    in reservation: Reservation, _ operation: () async throws(Failure) -> Success
  ) async throws(Failure) -> Success {
    await awaitStart(reservation)
    reservation.item?.started()
    if reservation.beginsLater { began() }
    defer {
      reservation.item?.finished()
      finish(barrier: reservation.isBarrier)
    }
    return try await operation()
  }

  /// An item that ran in its own task finished: starts what may start now.
  private func finish(barrier: Bool) {
    let starts = machine.withLock { $0.finish(barrier: barrier, byWorker: false) }
    perform(starts)
  }

  /// The granted item that runs in the calling task begins: what is behind it may begin.
  private func began() {
    perform(machine.withLock { $0.began() })
  }

  /// Starts what the machine says: a worker, or the holder of a granted place (the calling
  /// worker's own next job aside).
  private func perform(_ starts: Machine.Starts) {
    switch starts.other {
    case .worker: startWorker()
    case .holder(let holder): holder.resume()
    case nil: break
    }
  }

  private func startWorker() {
    // The plain initializer when there is no preference (always, outside a controlled run).
    guard let preference = QueueObservation.taskExecutorForNewTasks else {
      Task.detached(priority: priority) { await self.work() }
      return
    }
    Task.detached(executorPreference: preference, priority: priority) { await self.work() }
  }

  /// A worker: takes the work that may begin, runs it, and takes the next as it finishes each;
  /// ends when no work may begin (a later enqueue or finish asks for a worker again).
  private func work() async {
    var starts = machine.withLock { $0.workerStarted() }
    while true {
      perform(starts)
      guard let (job, isBarrier) = starts.next else { return }
      await job.run()
      starts = machine.withLock { $0.finish(barrier: isBarrier, byWorker: true) }
    }
  }
}
