import Foundation

/// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): random task priorities
/// with `depth − 1` priority change points, made fair to tasks that yield and to runs that would
/// otherwise never end.
///
/// Each task gets a random priority when first seen and the runnable job of the highest-priority
/// task always runs (the oldest, among jobs of one task or of no task); at `depth − 1` steps chosen
/// at random from `1...expectedSteps`, the task about to run is demoted below every other priority:
/// it is *stalled*, as a thread the system stopped. For a bug that needs `depth` ordering
/// constraints, one run finds it with probability at least 1/(n·k^(depth−1)) for n tasks and k
/// steps; ``summary`` states the n, k and bound of the run.
///
/// Three rules keep it fair where plain PCT would starve a task forever, which real threads never
/// do:
/// - **A yield goes last.** A task that calls `Task.yield()` drops below every other priority but
///   a stalled task's (as Shuttle's PCT demotes a yielding thread): it asked to let other work go
///   first, and a task that loops on `Task.yield()` waiting for another task (a test clock's "mega
///   yield", a polling loop) would otherwise keep the highest priority and never let that task run.
/// - **A stall outlasts at most ``stallYieldLimit`` yields.** Past them, the stalled tasks go below
///   the yields so far, so a task polling with `Task.yield()` for a stalled one lets it run. Up to
///   then, yielding tasks run ahead of it, as a preempted thread's peers do. Yields by two tasks
///   first seen after the stall began end it at once: a "mega yield" makes a new task per yield,
///   and on real threads the stalled job, queued before those tasks were made, runs before them.
/// - **Unfairness is bounded.** After ``unfairChoiceLimit`` choices the run continues with seeded
///   uniform choices (as Coyote bounds its unfair steps): two tasks that wake each other forever at
///   the top of the priorities (a consumer of an endless `merge`) no longer keep the task that
///   would cancel them from running. A task that spins by hopping between executors, never
///   waiting, is bounded the same way: a hop is progress, not a yield.
///
/// The bound's guarantee is unchanged for a body that does not yield and whose runs take at most
/// ``unfairChoiceLimit`` choices: such a run is exactly plain PCT. A yield's demotion is decided by
/// the body, not by the random draws, so it spends none of the probability that the initial
/// priorities and change points carry.
///
/// Choosing costs O(log n) for n runnable jobs: the strategy keeps a heap of the runnable jobs
/// by priority, learns of new jobs from `RunnableJobs/forEachJob(from:_:)`, and drops jobs that
/// ran or whose task's priority changed when they reach the top.
public struct PCTStrategy: ScheduleStrategy, Sendable {
  /// The bug depth the strategy targets (1: priority scheduling only).
  public let depth: Int
  /// The step range the change points are drawn from; use about the number of steps of a run.
  public let expectedSteps: Int
  /// The number of choices made by priority before the run goes on with uniform choices:
  /// four times `expectedSteps`, and at least 10,000, unless given.
  public let unfairChoiceLimit: Int

  private var generator: SplitMix64
  /// Drives the uniform choices past ``unfairChoiceLimit``; separate, so that the choices before
  /// it are those of plain PCT.
  private var fairGenerator: SplitMix64
  /// By run-local task id; `unassigned` until first seen.
  private var priorities: [Int] = []
  private var prioritizedTasks = 0
  private var changePoints: [Int]
  private var demotions = 0
  /// The lowest priority a yield gave so far: the next yield goes below it (and above every
  /// change point's).
  private var lowest = 0
  /// Tasks a change point demoted that have not been released yet (see ``stallYieldLimit``).
  private var stalledTasks: [Int] = []
  /// Yields seen since the last change point, while a task is stalled, and the tasks that made
  /// them (the first two).
  private var yieldsDuringStall = 0
  private var yieldersDuringStall: [Int] = []
  /// Tasks first seen while a task is stalled (the first few): only their yields end a stall early.
  private var tasksMadeDuringStall: [Int] = []
  /// Set when a task's priority went up: the heap is rebuilt before the next choice (at most
  /// `depth − 1` times a run).
  private var heapIsStale = false

  /// How many yields a change point's stall outlasts: past them, the stalled tasks go below every
  /// yield so far, so a task that polls with `Task.yield()` for a stalled task lets it run. (Yields
  /// by two tasks first seen during the stall end it at once.)
  public static let stallYieldLimit = 64
  private var step = 0
  private var heap = PriorityHeap()
  /// Jobs with smaller ids were seen by an earlier choice.
  private var nextUnseen: RunnableJob.ID = 0

  private static let unassigned = Int.min

  /// A change point's priority: below every initial priority and every yield's, the first
  /// change point's above the second's, and so on. A task demoted there is stalled: it runs only
  /// when nothing else can, even tasks that keep yielding (as a thread the system stopped lets
  /// every other thread go on, whatever they do).
  private static func demotedPriority(demotions: Int, depth: Int) -> Int {
    Int.min + 1 + depth - demotions
  }

  private typealias Candidate = PriorityHeap.Entry

  /// Creates a PCT strategy.
  /// - Parameters:
  ///   - seed: Seeds the priorities and change points.
  ///   - depth: The bug depth d, at least 1.
  ///   - expectedSteps: About how many steps a run takes (k in the bound).
  ///   - unfairChoiceLimit: The number of choices made by priority before the run goes on with
  ///     uniform choices; nil: `max(4 × expectedSteps, 10_000)`.
  public init(seed: UInt64, depth: Int = 3, expectedSteps: Int = 1000, unfairChoiceLimit: Int? = nil) {
    precondition(depth >= 1, "PCTStrategy: depth must be at least 1")
    precondition(expectedSteps >= 1, "PCTStrategy: expectedSteps must be at least 1")
    precondition((unfairChoiceLimit ?? 0) >= 0, "PCTStrategy: unfairChoiceLimit must not be negative")
    self.depth = depth
    self.expectedSteps = expectedSteps
    self.unfairChoiceLimit = unfairChoiceLimit ?? Self.defaultUnfairChoiceLimit(expectedSteps: expectedSteps)
    var generator = SplitMix64(seed: seed)
    changePoints = (0..<(depth - 1)).map { _ in Int(generator.next() % UInt64(expectedSteps)) + 1 }.sorted()
    self.generator = generator
    fairGenerator = SplitMix64(seed: seed ^ 0xFA1F_FA1F_FA1F_FA1F)
  }

  /// The default ``unfairChoiceLimit`` for runs of about `expectedSteps` steps.
  public static func defaultUnfairChoiceLimit(expectedSteps: Int) -> Int {
    max(expectedSteps.multipliedReportingOverflow(by: 4).overflow ? .max : expectedSteps * 4, 10_000)
  }

  /// Without the runnable jobs PCT cannot rank them: runs the oldest.
  public mutating func choose(runnableCount: Int) -> Int { 0 }

  /// Runs the job of the highest-priority task, demoting it first at a change point; past
  /// ``unfairChoiceLimit``, a uniform choice.
  @_spi(Strategies) public mutating func choose(from runnable: RunnableJobs, context: ChoiceContext) -> Int {
    step += 1
    if step > unfairChoiceLimit {
      return Int(fairGenerator.next() % UInt64(runnable.count))
    }
    runnable.forEachJob(from: nextUnseen) { job in
      let task: Int
      if job.yieldingTask != 0 {
        task = job.yieldingTask
        growPriorities(toHold: task)
        if priorities[task] == Self.unassigned {
          prioritizedTasks += 1
          noteTaskMadeDuringStall(task)
        }
        lowest -= 1
        priorities[task] = lowest
        noteYieldDuringStall(by: task)
      } else {
        task = job.task
        growPriorities(toHold: task)
        if priorities[task] == Self.unassigned {
          // Initial priorities sit above every demoted one (demotions use 1...depth-1).
          priorities[task] = depth + Int(truncatingIfNeeded: generator.next() >> 2)
          prioritizedTasks += 1
          noteTaskMadeDuringStall(task)
        }
      }
      heap.push(Candidate(priority: priorities[task], id: job.id, task: task))
    }
    nextUnseen = runnable.nextID
    if heapIsStale {
      // Released tasks went up: their jobs' entries are buried below their new priority.
      heap.removeAll()
      runnable.forEachJob(from: 0) { job in
        let task = job.yieldingTask != 0 ? job.yieldingTask : job.task
        heap.push(Candidate(priority: priorities[task], id: job.id, task: task))
      }
      heapIsStale = false
    }
    var best = top(of: runnable)
    if demotions < changePoints.count, changePoints[demotions] == step {
      demotions += 1
      priorities[best.task] = Self.demotedPriority(demotions: demotions, depth: depth)
      stalledTasks.append(best.task)
      yieldsDuringStall = 0
      yieldersDuringStall = []
      tasksMadeDuringStall = []
      best = top(of: runnable)
    }
    return runnable.index(of: best.id) ?? 0
  }

  /// The choice from which the run went on with uniform choices, if it got that far.
  @_spi(Strategies) public var fairFromChoice: Int? { step > unfairChoiceLimit ? unfairChoiceLimit + 1 : nil }

  /// The run's n (tasks), k (choice steps) and the bound 1/(n·k^(d−1)).
  public var summary: String? {
    let n = max(prioritizedTasks, 1)
    let k = max(min(step, unfairChoiceLimit), 1)
    let bound = 1 / (Double(n) * pow(Double(k), Double(depth - 1)))
    let fair = step > unfairChoiceLimit ? "; uniform choices from choice \(unfairChoiceLimit + 1) on" : ""
    return "PCT(depth: \(depth)): n = \(n) tasks, k = \(k) choice steps, bound 1/(n·k^(d−1)) = \(bound)\(fair)"
  }

  // MARK: - Stalls and the heap

  /// Notes a task first seen while a task is stalled (the first eight: two yielders end a stall).
  private mutating func noteTaskMadeDuringStall(_ task: Int) {
    guard !stalledTasks.isEmpty, tasksMadeDuringStall.count < 8 else { return }
    tasksMadeDuringStall.append(task)
  }

  /// Counts a yield by `task`. Once two different tasks first seen during the stall have yielded,
  /// or there were more than ``stallYieldLimit`` yields, the stalled tasks go below every yield so
  /// far (the first stalled first), where the next yield of a polling task puts it below them.
  private mutating func noteYieldDuringStall(by task: Int) {
    guard !stalledTasks.isEmpty else { return }
    yieldsDuringStall += 1
    if yieldersDuringStall.count < 2, tasksMadeDuringStall.contains(task), !yieldersDuringStall.contains(task) {
      yieldersDuringStall.append(task)
    }
    guard yieldersDuringStall.count >= 2 || yieldsDuringStall > Self.stallYieldLimit else { return }
    for task in stalledTasks {
      lowest -= 1
      priorities[task] = lowest
    }
    stalledTasks.removeAll()
    heapIsStale = true
  }

  /// The best candidate still runnable at its task's current priority. Candidates that ran are
  /// dropped, and those whose task was demoted since they were pushed go back in at the new
  /// priority (a priority that goes up rebuilds the heap instead; see `heapIsStale`). The
  /// runnable jobs are all in the heap, so it is never empty here.
  private mutating func top(of runnable: RunnableJobs) -> Candidate {
    while let best = heap.top {
      if !runnable.contains(best.id) {
        heap.popTop()
      } else if priorities[best.task] != best.priority {
        heap.popTop()
        heap.push(Candidate(priority: priorities[best.task], id: best.id, task: best.task))
      } else {
        return best
      }
    }
    preconditionFailure("PCTStrategy: no runnable job in the heap")
  }

  private mutating func growPriorities(toHold task: Int) {
    if task >= priorities.count {
      priorities += repeatElement(Self.unassigned, count: max(task + 1 - priorities.count, priorities.count))
    }
  }
}
