/// The runnable jobs a ``ScheduleStrategy`` chooses from, oldest first: a read-only view of the
/// run's ready list, valid only during the `choose` call it is passed to.
///
/// Every operation costs O(1) or O(log n) whatever the number of runnable jobs, so a strategy that
/// uses only these (never a loop over all jobs) keeps the cost of a step flat. Each job has an
/// `RunnableJob/id` that stays its own while it waits, increasing in the order jobs became
/// runnable: a strategy that keeps state across choices (PCT's priority heap) learns of new jobs
/// with ``forEachJob(from:_:)`` from the ``nextID`` it saw last.
@_spi(Strategies) public struct RunnableJobs {
  private let queue: ReadyQueue

  init(_ queue: ReadyQueue) {
    self.queue = queue
  }

  /// The number of runnable jobs (at least two when a strategy is asked).
  public var count: Int { queue.count }

  /// The runnable job at `index` (0: the oldest).
  /// - Precondition: `index` is in `0..<count`.
  public subscript(index: Int) -> RunnableJob {
    RunnableJob(queue.entry(at: index))
  }

  /// The run-local id of the task of the job at `index` (0: a job of no task).
  public func task(at index: Int) -> Int {
    queue.entry(at: index).held.task
  }

  /// The index of the job with this id, or nil if it is no longer runnable.
  public func index(of id: RunnableJob.ID) -> Int? {
    queue.index(ofSequence: id)
  }

  /// Whether the job with this id is still runnable.
  public func contains(_ id: RunnableJob.ID) -> Bool {
    queue.contains(sequence: id)
  }

  /// The index of the task's runnable job (a task has at most one), or for task 0 the oldest
  /// runnable job of no task; nil if there is none.
  public func index(ofTask task: Int) -> Int? {
    queue.index(ofTask: task)
  }

  /// The id the next job to become runnable will get: every job runnable now has a smaller one.
  public var nextID: RunnableJob.ID { queue.nextSequence }

  /// Passes each runnable job whose id is at least `id` to `body`, oldest first. Jobs that
  /// became runnable and ran between two choices are not passed.
  public func forEachJob(from id: RunnableJob.ID, _ body: (RunnableJob) -> Void) {
    queue.forEachLive(from: id) { body(RunnableJob($0)) }
  }
}

/// One runnable job, as a strategy sees it.
@_spi(Strategies) public struct RunnableJob: Sendable, Equatable {
  /// Identifies a runnable job within a run; increasing in the order jobs became runnable.
  public typealias ID = UInt64

  /// The job's id.
  public let id: ID
  /// The run-local id of the job's task (0: a job of no task, such as an actor's drain).
  public let task: Int
  /// The run-local id of the task whose `Task.yield()` this job is, or 0. Running it makes that
  /// task runnable again: the task asked to let other work go first.
  public let yieldingTask: Int

  init(_ entry: ReadyQueue.Entry) {
    id = entry.sequence
    task = entry.held.task
    yieldingTask = entry.yieldingTask
  }

  /// Creates a description of a job (for strategies' tests).
  public init(id: ID, task: Int, yieldingTask: Int = 0) {
    self.id = id
    self.task = task
    self.yieldingTask = yieldingTask
  }
}
