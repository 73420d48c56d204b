#if compiler(>=6.3)
  import Foundation

  /// Runs asynchronous code with every job it causes held and run one at a time, on one thread,
  /// in an order a ``ScheduleStrategy`` picks, so that a run replays bit for bit.
  ///
  /// Captured: `Task {}`, `Task.detached`, `async let`, task-group children, actor and `@MainActor`
  /// code, continuation resumes (also from other threads, for tasks of the run), `Task.yield()` and
  /// `Task.sleep`, whose time is virtual: it advances only when nothing can run, so an hour of
  /// sleeping takes milliseconds.
  ///
  /// - A run ends when its root task has finished and no job is runnable any more (jobs left
  ///   runnable by the root still run; timers still pending are handed to the platform), when it
  ///   deadlocks, or when the step budget is spent. A run that did not complete abandons its
  ///   tasks: none of their jobs ever runs again (they stay suspended), so a stuck test body never
  ///   resumes behind the test's back. Their memory is not reclaimed.
  /// - The body sees the caller's task-local values (`Test.current` among them).
  /// - Only one controlled run happens at a time in a process; concurrent calls wait their turn.
  ///   Code that does not belong to a run (tests running in parallel) is never captured.
  /// - The first run installs the harness executors for the rest of the process (an SPI of the
  ///   Swift 6.3 runtime); outside runs they forward every job unchanged.
  /// - The run's jobs all execute on the driver thread, so code under test must not block that
  ///   thread waiting for work of the same run (it would wait forever; the harness cannot help).
  /// - Requires the Swift 6.3 runtime's executor-factory SPI (`#if compiler(>=6.3)`); built with
  ///   an older compiler, this module offers strategies, schedules and traces but no executor.
  public enum ControlledExecutor {
    /// The most jobs a run executes before it stops with ``RunResult/Outcome/stepBudgetExceeded(steps:)``:
    /// the one default of every run, series, trait and scenario (100,000).
    public static let defaultStepBudget = 100_000

    /// How long, in real time, a run waits for a declared outside wake-up before it ends with
    /// ``RunResult/Outcome/outsideWakeUpNeverCame(_:)``.
    public static let defaultOutsideWakeUpTimeout = Duration.seconds(10)

    /// How long, in real time, a run waits for work outside the harness (see ``OutsideWork``)
    /// when nothing it controls can run: 2 seconds, generous for callbacks on Dispatch queues,
    /// Foundation and custom executors, which come back in micro- to milliseconds.
    ///
    /// - Before calling a run deadlocked, it waits this long for a job to come back from
    ///   outside (a continuation resumed by a completion handler, a task leaving a custom
    ///   executor), unless the announced waits form a wait-for cycle, which no outside work
    ///   ends. A deadlock report says that it waited, and for how long.
    /// - Once the run has taken work from outside (or handed it out, or woken a thread outside
    ///   it), it also waits before moving virtual time to the next timer: the timer's delay, less
    ///   the real time since virtual time last moved, whatever this timeout, so that a callback
    ///   or another thread's own timer racing a timeout wins the race it wins on real threads.
    ///   Zero turns this wait off too.
    ///
    /// Zero turns both waits off: for code with no work outside the harness, a deadlock is then
    /// reported at once.
    public static let defaultOutsideWorkTimeout = Duration.seconds(2)

    /// How long one job of a run may run before the run gives up on it as stuck (see
    /// ``RunResult/Outcome/stuck(_:)``): 60 seconds, the limit the trait's child processes use
    /// for a test without a `.timeLimit`. No job of a body that awaits instead of blocking comes
    /// near it.
    public static let defaultJobTimeLimit = Duration.seconds(60)

    /// How long one job may run before its run leaves one-job-at-a-time (see `jobSlice` of
    /// ``runBlocking(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:jobTimeLimit:jobSlice:cancelling:_:)``):
    /// 25 milliseconds, what ``ControlledScheduling`` and its trait use unless told otherwise. A
    /// job that awaits instead of looping or blocking takes microseconds.
    public static let defaultJobSlice = Duration.milliseconds(25)

    /// The harness's task executor, for unstructured tasks that should be as controlled as
    /// structured ones: `Task(executorPreference: ControlledExecutor.taskExecutor) { ... }`.
    ///
    /// A controlled run's root task and its `async let` and task-group children prefer this
    /// executor, which makes every actor hop they make a scheduling point. Tasks created with
    /// `Task {}` or `Task.detached` do not inherit a preference, and may leave an actor without
    /// one (see ``RunResult/inlineHopTasks``); creating them with this preference closes that
    /// gap. Outside a run the executor hands every job to the platform's default executor, so
    /// the same code runs normally there.
    @available(ExecutorHooks 1.0, *)
    public static var taskExecutor: any TaskExecutor { HarnessTaskExecutor.shared }

    /// The job running now, as a watchdog on another thread may see it (see
    /// `RunDriver.jobInProgress`); nil between runs. For QueueTesting's child-process watchdog.
    @available(ExecutorHooks 1.0, *)
    package static var jobInProgress: (jobsStarted: Int, task: Int, step: Int)? {
      RunDriver.shared.jobInProgress
    }

    /// Whether the active run left one-job-at-a-time (see ``RunResult/leftOneJobAtATimeAtStep``):
    /// for QueueTesting's child-process watchdog, whose report says so.
    @available(ExecutorHooks 1.0, *)
    package static var activeRunLeftOneJobAtATime: Bool {
      RunDriver.shared.hasLeftOneJobAtATime
    }

    /// The blocking call the active run's driver thread is in now, if the harness can name it
    /// (see ``BlockingWait``): for QueueTesting's child-process watchdog, whose report names it.
    @available(ExecutorHooks 1.0, *)
    package static var driverBlockingWait: BlockingWait? {
      // The thread of the run's job in progress: also while a run that left one-job-at-a-time
      // has no driving thread, and, while its driver waits for nothing else, the thread of the
      // oldest job that overstayed its slice (see `RunDriver+Overstay`).
      let thread = RunDriver.shared.jobThread.load(ordering: .relaxed)
      let kernelThread = RunDriver.shared.driverKernelThread.load(ordering: .relaxed)
      return thread == 0 ? nil : BlockingWait.of(thread: thread, kernelThread: kernelThread)
    }

    /// Whether runs in this process count the work they hand to Dispatch queues, the threads
    /// they start and the threads they wake, so that virtual time waits for them (see "Scheduling
    /// points"): true where the
    /// test binary's own definitions of those calls are the ones called (Linux), false under the
    /// thread sanitizer, whose runtime intercepts the same calls, and on other platforms.
    public static var countsOutsideWork: Bool {
      OutsideWorkProbe.isCounted
    }

    /// Whether clock reads in a run's jobs follow the run's virtual time in this process (see
    /// "The harness's model and its limits"): true where the test binary's own definitions of the
    /// C clock calls are the ones called (Linux), false under the thread sanitizer, whose runtime
    /// takes `clock_gettime` itself, and on other platforms.
    public static var clockReadsFollowVirtualTime: Bool {
      VirtualTimeProbe.isRead
    }

    /// Whether the calling code runs under a controlled run (on the run's driver thread). Always
    /// false on an OS older than controlled runs need, where no run can be active.
    public static var isControlling: Bool {
      guard #available(ExecutorHooks 1.0, *) else { return false }
      return RunDriver.shared.isDriverThread
    }

    /// The trace of the active run up to now, for code running under it; nil elsewhere. Ordering
    /// assertions use it to check the queues' events while the run is still going. After the run
    /// left one-job-at-a-time (see ``RunResult/leftOneJobAtATimeAtStep``), the job that overstayed
    /// its slice sees the trace up to that step.
    public static var traceSoFar: Trace? {
      guard #available(ExecutorHooks 1.0, *) else { return nil }
      return RunDriver.shared.traceSoFar
    }

    /// Declares, from code running under a controlled run, that one of the run's tasks will be
    /// woken from outside the run (a continuation resumed by a Dispatch queue, a thread, a system
    /// callback). The driver then waits for that wake-up instead of reporting a deadlock the moment
    /// nothing can run; if it never comes, the run ends with
    /// ``RunResult/Outcome/outsideWakeUpNeverCame(_:)`` naming `label`.
    ///
    /// Each declaration is consumed by the next job of the run that arrives from another thread.
    /// - Precondition: Called from inside a controlled run.
    public static func expectOutsideWakeUp(_ label: String) {
      precondition(
        tryExpectOutsideWakeUp(label),
        "ControlledExecutor.expectOutsideWakeUp(_:) must be called from code running under a controlled run"
      )
    }

    /// Runs `body` on the calling thread, which blocks until the run ends (the "top-level await
    /// that drives the loop"). Call it from synchronous code, not from a task of the cooperative
    /// pool: use ``run(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:jobTimeLimit:jobSlice:cancelling:_:)`` from async code.
    ///
    /// With `cancelling` targets, the strategy may also cancel targeted tasks between jobs (see
    /// ``CancellationTargets``; wrap a strategy in ``CancellingStrategy`` to have it do so).
    ///
    /// With a `jobSlice` (``defaultJobSlice`` is what ``ControlledScheduling`` and its trait pass),
    /// a job that has not returned after the slice does not hold the run: the run leaves
    /// one-job-at-a-time there: the job goes on on its own thread, and a thread of the harness
    /// goes on running the run's other jobs one at a time, in the order the strategy chooses,
    /// until its root task finishes; ``RunResult/leftOneJobAtATimeAtStep`` says where. A job that
    /// runs until another task of the run acts (a loop over a synchronous sequence that ends when
    /// its task is cancelled) then passes as it does on real threads. With `nil`, the run stays
    /// one-job-at-a-time, and such a job never returns.
    ///
    /// With a `jobTimeLimit` (by default ``defaultJobTimeLimit``), the run is driven by a thread
    /// of the harness while the calling thread waits, and a job that runs longer than the limit
    /// without returning ends the run as ``RunResult/Outcome/stuck(_:)``, naming the job's task,
    /// its step and the blocking call its thread is in; that thread is left behind, and no run
    /// can start in the process until the job returns (each such run returns at once, stuck on
    /// the earlier job). After the run left one-job-at-a-time, the limit applies to the whole
    /// run: it is stuck when no job of it started, and no job that overstayed returned, for that long. With `nil`, the calling thread
    /// drives the run, and a job that never returns never lets it return.
    @available(ExecutorHooks 1.0, *)
    public static func runBlocking<Strategy: ScheduleStrategy>(
      strategy: Strategy,
      stepBudget: Int = defaultStepBudget,
      outsideWakeUpTimeout: Duration = defaultOutsideWakeUpTimeout,
      outsideWorkTimeout: Duration = defaultOutsideWorkTimeout,
      jobTimeLimit: Duration? = defaultJobTimeLimit,
      jobSlice: Duration? = nil,
      cancelling: CancellationTargets? = nil,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      runBlocking(
        strategy: strategy, stepBudget: stepBudget, outsideWakeUpTimeout: outsideWakeUpTimeout,
        outsideWorkTimeout: outsideWorkTimeout, jobTimeLimit: jobTimeLimit, jobSlice: jobSlice,
        cancelling: cancelling, model: .faithful, body)
    }

    /// A run that models the runtime as `model` says (see ``RuntimeModel``): for the package's
    /// mutation checks. `measurementStall` shortens the delays the run measures (see
    /// `RunSettings.measurementStall`).
    @available(ExecutorHooks 1.0, *)
    package static func runBlocking<Strategy: ScheduleStrategy>(
      strategy: Strategy,
      stepBudget: Int = defaultStepBudget,
      outsideWakeUpTimeout: Duration = defaultOutsideWakeUpTimeout,
      outsideWorkTimeout: Duration = defaultOutsideWorkTimeout,
      jobTimeLimit: Duration? = defaultJobTimeLimit,
      jobSlice: Duration? = nil,
      cancelling: CancellationTargets? = nil,
      model: RuntimeModel,
      measurementStall: (@Sendable () -> UInt64)? = nil,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      var strategy = strategy
      return RunDriver.shared.run(
        strategy: &strategy, stepBudget: stepBudget, outsideWakeUpTimeout: outsideWakeUpTimeout,
        outsideWorkTimeout: max(outsideWorkTimeout, .zero), jobTimeLimit: jobTimeLimit, jobSlice: jobSlice,
        cancelling: cancelling, model: model, measurementStall: measurementStall, body)
    }

    /// Runs `body` under a ``SeededRandomStrategy``; see ``runBlocking(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:jobTimeLimit:jobSlice:cancelling:_:)``.
    @available(ExecutorHooks 1.0, *)
    public static func runBlocking(
      seed: UInt64,
      stepBudget: Int = defaultStepBudget,
      outsideWakeUpTimeout: Duration = defaultOutsideWakeUpTimeout,
      outsideWorkTimeout: Duration = defaultOutsideWorkTimeout,
      jobTimeLimit: Duration? = defaultJobTimeLimit,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      runBlocking(
        strategy: SeededRandomStrategy(seed: seed), stepBudget: stepBudget,
        outsideWakeUpTimeout: outsideWakeUpTimeout, outsideWorkTimeout: outsideWorkTimeout,
        jobTimeLimit: jobTimeLimit, body)
    }

    /// Runs `body` under control and returns the result.
    ///
    /// The calling thread stays busy for the length of the run (one thread of the cooperative
    /// pool, typically milliseconds): with a `jobTimeLimit` it waits while a thread of the
    /// harness drives the run (see ``runBlocking(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:jobTimeLimit:jobSlice:cancelling:_:)``),
    /// with `nil` it drives the run itself.
    @available(ExecutorHooks 1.0, *)
    public static func run<Strategy: ScheduleStrategy & Sendable>(
      strategy: Strategy,
      stepBudget: Int = defaultStepBudget,
      outsideWakeUpTimeout: Duration = defaultOutsideWakeUpTimeout,
      outsideWorkTimeout: Duration = defaultOutsideWorkTimeout,
      jobTimeLimit: Duration? = defaultJobTimeLimit,
      jobSlice: Duration? = nil,
      cancelling: CancellationTargets? = nil,
      _ body: @escaping @Sendable () async -> Void
    ) async -> RunResult {
      runBlocking(
        strategy: strategy, stepBudget: stepBudget, outsideWakeUpTimeout: outsideWakeUpTimeout,
        outsideWorkTimeout: outsideWorkTimeout, jobTimeLimit: jobTimeLimit, jobSlice: jobSlice,
        cancelling: cancelling, body)
    }

    /// Runs `body` under a ``SeededRandomStrategy``; see ``run(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:jobTimeLimit:jobSlice:cancelling:_:)``.
    @available(ExecutorHooks 1.0, *)
    public static func run(
      seed: UInt64,
      stepBudget: Int = defaultStepBudget,
      outsideWakeUpTimeout: Duration = defaultOutsideWakeUpTimeout,
      outsideWorkTimeout: Duration = defaultOutsideWorkTimeout,
      jobTimeLimit: Duration? = defaultJobTimeLimit,
      _ body: @escaping @Sendable () async -> Void
    ) async -> RunResult {
      await run(
        strategy: SeededRandomStrategy(seed: seed), stepBudget: stepBudget,
        outsideWakeUpTimeout: outsideWakeUpTimeout, outsideWorkTimeout: outsideWorkTimeout,
        jobTimeLimit: jobTimeLimit, body)
    }
  }
#endif
