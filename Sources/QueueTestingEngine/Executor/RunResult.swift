/// The outcome of one controlled run.
public struct RunResult: Sendable {
  /// How the run ended.
  public enum Outcome: Equatable, Sendable {
    /// The root task finished.
    case completed
    /// The root task can never finish; see the report.
    case deadlocked(DeadlockReport)
    /// The run took more steps than its budget allowed (a livelock, or a budget set too low).
    case stepBudgetExceeded(steps: Int)
    /// Nothing could run while these declared outside wake-ups (by label) were still awaited, and
    /// they did not arrive within the timeout. See ``ControlledExecutor/expectOutsideWakeUp(_:)``.
    case outsideWakeUpNeverCame([String])
    /// A job ran past the job limit without returning; the run was abandoned, its thread left
    /// behind (see ``StuckJob``).
    case stuck(StuckJob)
    /// Another tool set an executor hook the harness cannot honour while the run went on (the
    /// message names it): the jobs that hook takes go where it sends them, not through the
    /// harness, so the run could not order them.
    case foreignExecutorHook(String)
  }

  /// How the run ended.
  public var outcome: Outcome
  /// The choices made; replaying them with ``ReplayStrategy`` reproduces the run.
  ///
  /// Unpacked from the run's compact record on each access: read it once and keep it rather
  /// than reading it in a loop.
  public var schedule: Schedule {
    Schedule(choices: choices.choices, cancellations: cancellations, admissions: admissions, timerDelays: timerDelays)
  }
  /// The tasks the run cancelled as schedule choices (see ``CancellationTargets``), in order.
  public var cancellations: [Schedule.Cancellation] = []
  /// The cancellation targets that became cancellable in this run (a child of the root that the
  /// run held a job of, a task whose name the run learned); nil for a run without targets.
  /// A target that never becomes cancellable is never cancelled: see
  /// ``CancellationTargets/unreached(by:)``.
  public var reachedCancellationTargets: CancellationTargets?
  /// Each timer's delay as the run took it, in whole milliseconds (nil: never), in the order
  /// the timers were set; part of ``schedule``.
  public var timerDelays: [UInt64?] = []
  /// The jobs the run admitted from outside the harness, in order (see ``OutsideWork``).
  public var admissions: [Schedule.Admission] = []
  /// What the run did outside the harness's control; empty for a run that did everything under
  /// control. A run with outside work depends on real timing: its schedule replays it (the
  /// admissions included), but the same seed may give another interleaving in another process.
  public var outsideWork = OutsideWork()
  /// Which task's work ran on which actor, step by step (see ``ActorWork``): for the run's
  /// picture; not part of the trace.
  package var actorWork = ActorWork()

  /// The cancellations for a person: `task 3 'download' cancelled at step 17`, one per line.
  public var cancellationLines: [String] {
    cancellations.map { "\(trace.label(ofTask: $0.task)) cancelled at step \($0.step)" }
  }
  /// How many jobs were runnable at each choice of ``schedule`` (same length): the branching
  /// an exhaustive search explores. Unpacked on each access, like ``schedule``.
  public var branching: [Int] { choices.branching }
  /// The choices and branching, 4 bytes per choice (a long run makes one per job).
  let choices: ChoiceLog
  /// What ran, step by step.
  public var trace: Trace
  /// Virtual time in nanoseconds at the end of the run.
  public var virtualTime: UInt64
  /// What the strategy reported about the run (for PCT: tasks, steps and the probability bound).
  public var strategySummary: String?
  /// The choice from which the run's strategy chose fairly, if it stopped favouring some jobs
  /// (see `ScheduleStrategy/fairFromChoice`).
  @_spi(Strategies) public var fairFromChoice: Int?

  /// Run-local ids of tasks whose hops out of an actor may not all have been scheduling points
  /// (empty when every hop of the run was one).
  ///
  /// A task without a task-executor preference may, when an actor's drain runs it, continue
  /// inline onto nonisolated code or an idle actor as it leaves the actor: the strategy is not
  /// asked there. Tasks created on the run's thread get the harness's preference at creation
  /// (see "Scheduling points"), so this lists tasks the harness could not give it: where the
  /// test binary does not call its task-creation entry point (a statically linked runtime), or
  /// tasks created by threads outside the run. Listed only when the run also ran an actor's jobs;
  /// a task created with `Task(executorPreference: ControlledExecutor.taskExecutor)` is never
  /// listed. An exhaustive search does not claim to have exhausted a space in which such a run
  /// occurred.
  public var inlineHopTasks: [Int] = []

  /// ``inlineHopTasks`` as the trace names them (`task 3 'download'`), for reports.
  public var inlineHopTaskLabels: [String] {
    inlineHopTasks.map { trace.label(ofTask: $0) }
  }

  /// Whether every hop of the run was a scheduling point (``inlineHopTasks`` is empty).
  public var everyHopWasAChoice: Bool { inlineHopTasks.isEmpty }

  /// The step at which the run left one-job-at-a-time, if it did: the job started there had not
  /// returned after the run's job slice, so it went on on its own thread, in real time, while the
  /// harness went on choosing the run's other jobs beside it (see
  /// ``ControlledExecutor/defaultJobSlice``). Its schedule replays exactly only up to that step.
  public var leftOneJobAtATimeAtStep: Int? {
    outsideWork.runsThatLeftOneJobAtATime > 0 ? outsideWork.leftOneJobAtATimeAtStep : nil
  }

  /// How many jobs ran.
  public var steps: Int { trace.stepCount }
}
