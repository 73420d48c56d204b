/// Which task's work ran on which actor, step by step: what a run's picture draws on the actors'
/// lanes, so that the order of the work on an actor can be seen.
///
/// A default actor runs the tasks queued on it inside one job of its own (its drain), which
/// belongs to no task. The run notes each hop of its tasks onto and off default actors as the
/// hop is made (where the runtime lets it: see ``RunResult/actorWork``), and so knows each
/// actor's queue: a drain gives a turn to every task queued on the actor when it starts, in the
/// order they queued, and to any task seen leaving the actor during it. (The runtime orders an
/// actor's queue by priority first: tasks of different priorities queued together may have run
/// in another order than they queued.) This record is for people: it is not part of the trace,
/// and the trace's hash does not depend on it.
package struct ActorWork: Sendable, Equatable {
  /// One task's turn on an actor.
  public struct Turn: Sendable, Equatable {
    /// The step (the actor's drain) during which it ran.
    public var step: Int
    /// The actor, an index into ``actorNames``.
    public var actor: Int
    /// The run-local id of the task.
    public var task: Int
  }

  /// The turns, in the order they ran.
  public private(set) var turns: [Turn] = []
  /// The actors' names: their type, numbered when a run has several of one type
  /// (`Counter`, `Cache #2`), by run-local index.
  public private(set) var actorNames: [String] = []

  private struct PendingTurn: Sendable, Equatable {
    var step: Int
    var actor: Int
    var runtimeTaskID: UInt64
  }

  /// Turns whose task is known by its runtime id only, until the run gives it a local id.
  private var pending: [PendingTurn] = []
  // Hops come a few per step, most of them to the actor of the hop before: the last answer of
  // each lookup is kept, so that a step of the run pays no hashing in the common case.
  /// Actors by identity (the object's address, valid for the run), to their index.
  private var indices: [UInt: Int] = [:]
  private var lastIdentity: UInt = 0
  private var lastIndex = 0
  private var typeCounts: [String: Int] = [:]
  /// Each actor's queue, by index: the tasks (runtime ids) that hopped onto it since its last
  /// drain.
  private var queues: [[UInt64]] = []
  /// The actor each drain job the run holds belongs to, by the job's address.
  private var drainActors: [UInt: Int] = [:]
  private var lastDrainJob: UInt = 0
  private var lastDrainActor = 0
  /// The actor whose drain runs now (-1: none), its step, and the tasks it gave a turn so far.
  private var drainingActor = -1
  private var drainingStep = 0
  private var drainingTasks: [UInt64] = []

  /// An empty record.
  public init() {}

  /// The index of the actor `identity`; `typeName` names its type the first time it is seen
  /// (the actor is alive then: it is being entered or left).
  private mutating func index(of identity: UInt, typeName: (UInt) -> String) -> Int {
    if identity == lastIdentity { return lastIndex }
    defer {
      lastIdentity = identity
      lastIndex = indices[identity] ?? 0
    }
    if let known = indices[identity] { return known }
    let type = typeName(identity)
    let count = typeCounts[type, default: 0] + 1
    typeCounts[type] = count
    let index = actorNames.count
    indices[identity] = index
    actorNames.append(count == 1 ? type : "\(type) #\(count)")
    queues.append([])
    return index
  }

  /// Notes a hop of the task `task` (a runtime id) off the actor `from` and onto the actor `to`
  /// (0: neither), made during `step`.
  mutating func noteHop(task: UInt64, from: UInt, to: UInt, step: Int, typeName: (UInt) -> String) {
    guard task != 0 else { return }
    if from != 0 {
      let actor = index(of: from, typeName: typeName)
      // Leaving the actor whose drain runs: a turn, if its queue did not give it one already.
      if actor == drainingActor, step == drainingStep, !drainingTasks.contains(task) {
        drainingTasks.append(task)
        pending.append(PendingTurn(step: step, actor: actor, runtimeTaskID: task))
      }
    }
    if to != 0 {
      queues[index(of: to, typeName: typeName)].append(task)
    }
  }

  /// Notes that the drain job at `job` (its address) was scheduled for the actor `identity`
  /// (0: not known).
  mutating func noteDrainScheduled(job: UInt, actor identity: UInt, typeName: (UInt) -> String) {
    guard identity != 0 else { return }
    let actor = index(of: identity, typeName: typeName)
    if job == lastDrainJob, actor == lastDrainActor { return }
    drainActors[job] = actor
    lastDrainJob = job
    lastDrainActor = actor
  }

  /// Notes that the drain job at `job` runs as `step`: every task queued on its actor gets a
  /// turn, in the order they queued. Returns whether the job is a drain of a known actor.
  @discardableResult
  mutating func drainStarts(job: UInt, step: Int) -> Bool {
    // A drain job is run once: its entry goes (a separate job's address may be reused later).
    guard let actor = job == lastDrainJob ? lastDrainActor : drainActors.removeValue(forKey: job) else {
      drainingActor = -1
      return false
    }
    drainingActor = actor
    drainingStep = step
    drainingTasks.removeAll(keepingCapacity: true)
    swap(&drainingTasks, &queues[actor])
    for task in drainingTasks { pending.append(PendingTurn(step: step, actor: actor, runtimeTaskID: task)) }
    return true
  }

  /// Notes that the drain running now (if any) ended.
  mutating func drainEnds() {
    drainingActor = -1
  }

  /// Gives the pending turns their tasks' run-local ids (`localID` answers nil for a task that
  /// is not the run's), once the run has numbered them.
  mutating func resolve(_ localID: (UInt64) -> Int?) {
    for turn in pending {
      guard let task = localID(turn.runtimeTaskID) else { continue }
      turns.append(Turn(step: turn.step, actor: turn.actor, task: task))
    }
    pending = []
  }

  /// Equal when they record the same turns of the same actors.
  public static func == (lhs: ActorWork, rhs: ActorWork) -> Bool {
    lhs.turns == rhs.turns && lhs.actorNames == rhs.actorNames && lhs.pending == rhs.pending
  }
}
