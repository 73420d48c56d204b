/// A queue that starts asynchronous work on one actor's isolated context, in enqueue order.
///
/// Use it from an actor's nonisolated or synchronous code to send work into the actor in order.
/// The queue borrows the actor's isolation; it does not own a thread or an actor of its own:
///
/// ```swift
/// actor LogStore {
///   init() { queue.adoptExecutionContext(of: self) }
///
///   nonisolated func log(_ line: String) {
///     queue.enqueue { myself in myself.lines.append(line) }          // starts on the actor, in call order
///   }
///
///   func flush() async { await queue.enqueueAndWait { _ in } }
///
///   private var lines: [String] = []
///   private let queue = ActorQueue<LogStore>()
/// }
/// ```
///
/// - **Order:** items **start** on the actor in enqueue order, also when their tasks have
///   different priorities, and each item runs without interruption by later items until its first
///   suspension point. After that, like any actor code, items interleave at suspensions.
/// - **Reentrancy:** an item may `await queue.enqueueAndWait { }` on its own queue; this does not
///   deadlock (it waits only for the items before it to *start*).
/// - **Requirements:** call ``adoptExecutionContext(of:)`` once, in the actor's `init`, before
///   anything is enqueued, and do not let the queue outlive the actor (keep it a `private let` of
///   the actor). Breaking either stops the program with a precondition failure naming the mistake.
///   The queue holds the actor weakly while idle, so there is no retain cycle.
/// - **Cancellation and errors** behave as for ``FIFOQueue``: a cancelled item still runs in its
///   turn with `Task.isCancelled` set; an error reaches only the caller that waits for the item.
public final class ActorQueue<ActorType: Actor>: Sendable {
  /// An operation the drainer starts on the actor. A struct, not the bare function type: a
  /// closure stored as a generic value is reabstracted through a heap-allocated thunk.
  @usableFromInline
  struct Job: Sendable {
    @usableFromInline let run: @Sendable (isolated ActorType) async -> Void

    @inlinable
    init(run: @escaping @Sendable (isolated ActorType) async -> Void) {
      self.run = run
    }
  }

  /// One place in line: a job the drainer starts with `Task.immediate`, or the numbered place of
  /// a task that runs its own item (`Task(on:)`, `enqueueAndWait`); that task takes the turn and
  /// passes it on as soon as its item has started on the actor.
  @usableFromInline
  enum Entry: SerialDrainEntry {
    case job(Job)
    case place

    @usableFromInline
    var isPlace: Bool {
      if case .place = self { return true }
      return false
    }
  }

  @usableFromInline let storage = SerialDrainStorage<Entry>()
  private let context = LockedState<ExecutionContext>.make(.init())
  /// Whether items start with `Task.immediate` (when available) or with the portable fallback.
  /// Tests force the fallback so that both paths are exercised on every platform.
  @usableFromInline let startsItemsImmediately: Bool

  /// Creates an actor queue; call ``adoptExecutionContext(of:)`` before enqueuing.
  public convenience init() {
    self.init(startsItemsImmediately: true)
  }

  init(startsItemsImmediately: Bool) {
    self.startsItemsImmediately = startsItemsImmediately
  }

  /// Sets the actor whose isolated context runs this queue's items.
  ///
  /// Call it exactly once, from the adopted actor's `init`, before any work is enqueued. The actor
  /// is not retained.
  ///
  /// - Precondition: No actor was adopted before.
  public func adoptExecutionContext(of actor: ActorType) {
    let adoptedBefore = context.withLock { context in
      defer { context.adopt(actor) }
      return context.wasAdopted
    }
    precondition(
      !adoptedBefore,
      "ActorQueue<\(ActorType.self)>.adoptExecutionContext(of:) called twice: a queue serves one actor for its whole life"
    )
  }

  /// Enqueues `operation` to run on the adopted actor and returns at once.
  ///
  /// The operation starts after every item enqueued before it has started, and runs until its
  /// first suspension before any item enqueued after it starts.
  ///
  /// - Precondition: An actor was adopted and is still alive.
  @inlinable
  public func enqueue(_ operation: @escaping @Sendable (isolated ActorType) async -> Void) {
    // The actor is looked up only when the queue goes from idle to busy. While anyone holds the
    // turn (a drainer, or a task running its item), that holder keeps the actor alive, so a busy
    // queue cannot have lost or never had its actor; an idle one is always checked. Loading a
    // weak reference on every enqueue would contend with the drainer on the actor's refcount.
    // Inlinable (as is the drain loop) so that the whole per-item path is specialized for the
    // caller's actor type; unspecialized generic code paid runtime metadata lookups per item.
    var job = Job(run: operation)
    if let item = ObservedQueueItem.announce(on: observedDescription, waiting: false) {
      job = Job { actor in
        item.started()
        await operation(actor)
        item.finished()
      }
    }
    if storage.enqueue(.job(job)) == .startDrainer { startDrainer(on: adoptedActor()) }
  }

  /// Enqueues `operation` to run on the adopted actor, waits for it and returns its result.
  ///
  /// The operation starts after every earlier item has started. It runs in the caller's task, so
  /// cancelling the caller sets `Task.isCancelled` inside it; an error it throws is rethrown here.
  /// Calling this from an item of the same queue is allowed and does not deadlock.
  ///
  /// - Precondition: An actor was adopted and is still alive.
  public nonisolated(nonsending) func enqueueAndWait<Result: Sendable, Failure: Error>(
    _ operation: @Sendable (isolated ActorType) async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let actor = adoptedActor()
    let reservation = reserveTurn(on: actor, waiting: true)
    await storage.awaitTurn(reservation)
    return try await Self.startTurn(on: actor, lane: lane, reservation: reservation, operation)
  }

  // MARK: Engine

  /// The adopted actor, or a precondition failure that names the mistake.
  @usableFromInline
  func adoptedActor() -> ActorType {
    let (actor, wasAdopted) = context.withLock { ($0.actor, $0.wasAdopted) }
    if let actor { return actor }
    if wasAdopted {
      preconditionFailure(
        "ActorQueue<\(ActorType.self)> used after its adopted actor was deallocated: keep the queue a private property of the actor"
      )
    }
    preconditionFailure(
      "ActorQueue<\(ActorType.self)> used before adoptExecutionContext(of:): adopt the actor in its init"
    )
  }

  @inline(__always)
  func reserveTurn(on actor: ActorType, waiting: Bool) -> SerialDrainStorage<Entry>.Reservation {
    let item = ObservedQueueItem.announce(on: observedDescription, waiting: waiting)
    let (reservation, action) = storage.reserve(item: item)
    if action == .startDrainer { startDrainer(on: actor) }
    return reservation
  }

  /// Runs on the actor: gives the turn back as soon as the item has started there (the actor
  /// queue's one decision), then runs the item. Later items need the actor, which this item
  /// holds until its first suspension, so that first segment is never interleaved.
  static func startTurn<Result: Sendable, Failure: Error>(
    on actor: isolated ActorType,
    lane: Lane,
    reservation: SerialDrainStorage<Entry>.Reservation,
    _ operation: (isolated ActorType) async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    if lane.storage.passTurn() { startDrainer(lane, on: actor) }
    guard let item = reservation.item else { return try await operation(actor) }
    item.started()
    defer { item.finished() }
    return try await operation(actor)
  }

  /// How the harness's observer sees this queue.
  @usableFromInline
  var observedDescription: QueueDescription {
    QueueDescription(
      id: ObjectIdentifier(self), name: String(describing: ActorType.self),
      kind: ActorType.self == MainActor.self ? .main : .actor)
  }

  /// What a pending item needs of its queue: the storage and how items start, never the queue
  /// object, so that releasing the queue lets it go while its items still wait and run (they run
  /// all the same, in order).
  @usableFromInline
  struct Lane: Sendable {
    @usableFromInline let storage: SerialDrainStorage<Entry>
    @usableFromInline let startsItemsImmediately: Bool

    @inlinable
    init(storage: SerialDrainStorage<Entry>, startsItemsImmediately: Bool) {
      self.storage = storage
      self.startsItemsImmediately = startsItemsImmediately
    }
  }

  /// This queue's lane (see ``Lane``).
  @inlinable
  var lane: Lane { Lane(storage: storage, startsItemsImmediately: startsItemsImmediately) }

  @inlinable
  func startDrainer(on actor: ActorType) {
    Self.startDrainer(lane, on: actor)
  }

  @inlinable
  static func startDrainer(_ lane: Lane, on actor: ActorType) {
    // The drainer and its items hold the actor strongly, through the proxy, only while they
    // run; an idle queue holds it weakly. See ExecutorProxy for why they use a proxy at all.
    let storage = lane.storage
    let immediately = lane.startsItemsImmediately
    let proxy = ExecutorProxy(actor)
    // The plain initializer when there is no preference (always, outside a controlled run): the
    // one that takes a preference costs more per task.
    guard let preference = QueueObservation.taskExecutorForNewTasks else {
      Task.detached { await Self.drain(storage, on: proxy, immediately: immediately) }
      return
    }
    Task.detached(executorPreference: preference) {
      await Self.drain(storage, on: proxy, immediately: immediately)
    }
  }

  /// Runs on the actor (through its proxy) until no entry is left, starting each entry in order.
  @inlinable
  static func drain(
    _ storage: SerialDrainStorage<Entry>,
    on proxy: isolated ExecutorProxy<ActorType>,
    immediately: Bool
  ) async {
    var batch: [[Entry]] = []
    // Read once per drain: every item of a drain starts under the same run (or none). A Bool,
    // not the optional executor: see `startImmediatelyPreferring(_:on:)`, which reads the
    // executor again per item, under a run only.
    let preferring = QueueObservation.taskExecutorForNewTasks != nil
    while storage.nextBatch(into: &batch) {
      for chunk in batch.indices {
        for index in batch[chunk].indices {
          switch batch[chunk][index] {
          case .job(let job):
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *), immediately {
              // Runs the job's first segment right here, on the actor, before the next job:
              // no enqueue on the actor's priority-ordered job queue, so priorities cannot reorder.
              if preferring {
                startImmediatelyPreferring(job, on: proxy)
              } else {
                // The plain call, its preference a literal nil.
                Task.immediate { [proxy] in await job.run(proxy.target) }
              }
            } else {
              await startInNewTask(job, on: proxy)
            }
          case .place:
            // A task that runs its own item takes the turn from here and passes it on when its
            // item has started; the rest of the batch goes back in line, and this drainer ends.
            storage.handOver(batch, after: index, inChunk: chunk)
            return
          }
        }
        batch[chunk] = []
      }
    }
  }

  /// Starts `job` at once on the actor in a task that prefers the executor the installed
  /// observer names (under a controlled run only).
  ///
  /// Apart from the drain loop on purpose. `Task.immediate` takes the preference as an optional
  /// argument, and a task created with any value there other than a literal nil carries a
  /// task-executor preference record, even when the value is nil at run time: the runtime then
  /// takes the task's status-record lock at each of its hops and at its end. With the optional
  /// read and tested inside the drain loop, the optimizer feeds that value to the plain call too
  /// (in the branch where it is nil), and every item pays for a record it does not have.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @inline(never)
  @usableFromInline
  static func startImmediatelyPreferring(_ job: Job, on proxy: isolated ExecutorProxy<ActorType>) {
    Task.immediate(executorPreference: QueueObservation.taskExecutorForNewTasks) { [proxy] in
      await job.run(proxy.target)
    }
  }

  /// The portable way to start a job in order: a new task signals from the actor that it has
  /// started, and the drainer waits for that signal. The drainer's resumption needs the actor,
  /// which the job holds until its first suspension.
  @usableFromInline
  static func startInNewTask(_ job: Job, on proxy: isolated ExecutorProxy<ActorType>) async {
    await withUnsafeContinuation { (started: UnsafeContinuation<Void, Never>) in
      Task { [proxy] in
        await runSignallingStart(job, on: proxy, started: started)
      }
    }
  }

  private static func runSignallingStart(
    _ job: Job,
    on proxy: isolated ExecutorProxy<ActorType>,
    started: UnsafeContinuation<Void, Never>
  ) async {
    started.resume()
    await job.run(proxy.target)
  }

  /// The weakly held adopted actor.
  private struct ExecutionContext: Sendable {
    weak var actor: ActorType?
    private(set) var wasAdopted = false

    mutating func adopt(_ actor: ActorType) {
      self.actor = actor
      wasAdopted = true
    }
  }
}
