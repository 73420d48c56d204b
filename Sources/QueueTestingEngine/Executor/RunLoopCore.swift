#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  internal import CQueueTestingRuntime
  import Foundation
  import Synchronization

  /// The runtime's id of the task a job belongs to (0 for a job that is not a task). The standard
  /// library reads it the same way; the runtime exports the symbol, and no public API offers it.
  /// The standard library binds it from macOS 14 / iOS 17 on (`UnownedJob.description` has that
  /// availability), so every Apple runtime this harness can run on exports it.
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  @_silgen_name("swift_task_getJobTaskId")
  private func runtimeTaskID(of job: UnownedJob) -> UInt64

  /// The process-wide harness: the driver loop that carries out the active run's decisions, and
  /// the executors' entry point for every job of the process.
  ///
  /// A run's state is in two parts. The ``RunState`` (runnable jobs, timers, trace, choices) is
  /// the driver thread's alone: the jobs the driver's own jobs enqueue go to a driver-only list
  /// (`driverCaptures`) and into the state at the next step, so a step whose jobs all come from
  /// the driver takes no lock at all. What other threads share with the driver (which tasks are
  /// the run's, jobs they woke, expected outside wake-ups) is the ``RunMailbox``, behind
  /// `condition` (a pthread mutex and condition variable); the driver looks into it when the
  /// mailbox flag says a job was delivered, and whenever nothing is runnable.
  // Safety proof for `@unchecked Sendable`: `mailbox` and `installed` are read and written only
  // while `condition` is locked. `statePointer.pointee`, `driverCaptures.pointee`,
  // `driverOuterTaskID` and `driverJobCount` are read and written only by the thread whose id is in `driverThread`
  // (checked by every entry point that reaches them: `capture`, `withDriverState`), and by `run`
  // on that same thread. A thread finds
  // its own id there only between storing it (as it begins driving a run, with `condition`
  // locked) and clearing it (as the run ends, with `condition` locked, after its last access);
  // any other thread reads another id or 0. `runSlot`, held for a whole run, orders one driver's
  // last access before the next driver's first. `hasDeliveries` is an atomic hint; the deliveries
  // themselves are only touched under the lock.
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  final class RunLoopCore: @unchecked Sendable {  // safe: proof just above
    static let shared = RunLoopCore()

    /// How the driver runs jobs, as far as actor hops are concerned.
    enum HopPolicy: Sendable {
      /// Every hop is a scheduling point (see `run`): the model QueueTesting documents.
      case everyHop
      /// The runtime's fast path is left on: a job run on the generic executor switches to an
      /// idle actor inline, and so does a task leaving an actor. Kept only so that tests can show
      /// that the hop tests fail without the model (a mutation check); never a user option.
      case runtimeFastPath
    }

    /// The hop policy of runs started from the current task: a task-local so that a test can
    /// set it for its own runs without touching runs of tests running in parallel.
    @TaskLocal static var hopPolicy: HopPolicy = .everyHop

    /// Nanoseconds by which the delay of a sleep taken in the current task comes out short, as
    /// when the measuring thread stalls between the sleeper's `now` and the harness's: lets a
    /// test show that a replay does not depend on that measurement. Never a user option.
    @TaskLocal static var simulatedMeasurementStall: UInt64 = 0

    enum Source: Equatable {
      case global
      case main
      case timer(delay: UInt64)
    }

    private let condition = NSCondition()
    private let runSlot = NSLock()
    private var installed = false
    private var mailbox = RunMailbox()
    /// Set (under the lock) when the mailbox holds deliveries, so that the driver only takes the
    /// lock when there is something to collect.
    private let hasDeliveries = Atomic<Bool>(false)
    /// The driver's state, in memory of its own rather than a stored property: only the driver
    /// touches it, and a stored property of a class would add a dynamic exclusivity check to
    /// every access (measured at several percent of a yield-heavy run).
    private let statePointer: UnsafeMutablePointer<RunState> = {
      let pointer = UnsafeMutablePointer<RunState>.allocate(capacity: 1)
      pointer.initialize(to: RunState())
      return pointer
    }()

    /// The runtime id of the task that called the active run (0: none), which is the driver
    /// thread's current task whenever a job of no task runs. Written by the driver only.
    private var driverOuterTaskID: UInt64 = 0

    /// Jobs the driver has started in this process, and the run-local task and step of the one
    /// it started last: published (relaxed) before each job runs, for a watchdog on another
    /// thread (see ``jobInProgress``). `driverJobCount` is the driver's own count.
    private let jobsStarted = Atomic<Int>(0)
    private let runningTask = Atomic<Int>(0)
    private let runningStep = Atomic<Int>(0)
    private var driverJobCount = 0

    /// The id of the thread driving the active run (see `threadID`), 0 between runs: tells the
    /// driver's own calls (captures, records) apart from other threads' without a lock.
    private let driverThread = Atomic<UInt>(0)
    /// Jobs enqueued on the driver thread since the driver last looked at its state, oldest
    /// first; see the safety proof above. Handed to the state, in order, before the state is
    /// next read.
    private let driverCaptures: UnsafeMutablePointer<DriverCaptures> = {
      let pointer = UnsafeMutablePointer<DriverCaptures>.allocate(capacity: 1)
      pointer.initialize(to: DriverCaptures())
      return pointer
    }()

    /// A list of captures in memory of its own: an array here would pay a uniqueness check and a
    /// retain per job, and emptying one with its capacity kept is a general range replacement
    /// (measured: more than the lock round trip this list saves).
    private struct DriverCaptures {
      typealias Capture = RunState.CapturedJob

      private var base = UnsafeMutablePointer<Capture>.allocate(capacity: 16)
      private var capacity = 16
      private(set) var count = 0

      @inline(__always)
      mutating func append(_ capture: Capture) {
        if count == capacity { grow() }
        (base + count).initialize(to: capture)
        count += 1
      }

      private mutating func grow() {
        let larger = UnsafeMutablePointer<Capture>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
      }

      /// Passes each capture to `body`, oldest first, and empties the list.
      @inline(__always)
      mutating func drain(_ body: (Capture) -> Void) {
        for index in 0..<count { body(base[index]) }
        // Captures are plain values (a job pointer and numbers): nothing to deinitialize.
        count = 0
      }

      func deallocate() {
        base.deallocate()
      }
    }

    deinit {
      statePointer.deinitialize(count: 1)
      statePointer.deallocate()
      driverCaptures.pointee.deallocate()
      driverCaptures.deinitialize(count: 1)
      driverCaptures.deallocate()
    }

    /// The calling thread's id as a number (never 0 for a running thread).
    @inline(__always)
    private static func threadID() -> UInt {
      #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
      #else
        UInt(pthread_self())
      #endif
    }

    /// Whether the calling thread drives the active run, without the lock (see `driverThread`).
    @inline(__always)
    var isDriverThread: Bool {
      driverThread.load(ordering: .relaxed) == Self.threadID()
    }

    /// Hands the driver's buffered captures to the state, in the order they came, and tells the
    /// mailbox about tasks seen for the first time. Called on the driver thread.
    @inline(__always)
    private func holdDriverCaptures() {
      driverCaptures.pointee.drain { statePointer.pointee.hold($0) }
      if !statePointer.pointee.newTasks.isEmpty { registerNewTasks() }
    }

    /// Tells the mailbox which tasks are new to the run, before any of their jobs can run (and
    /// so before one of them can be woken from another thread).
    private func registerNewTasks() {
      condition.lock()
      mailbox.own(statePointer.pointee.newTasks)
      condition.unlock()
      statePointer.pointee.newTasks.removeAll(keepingCapacity: true)
    }

    /// Admits jobs other threads delivered into the state, in the order they came, and notes a
    /// root that finished outside. Called on the driver thread with `condition` locked.
    ///
    /// A replay (`replaying` not nil) admits a delivery that its schedule recorded at the step
    /// it recorded (see ``admitReplayedAdmissions(_:waitingUpTo:)``), not before, unless nothing
    /// can run without it (`quiescent`: the replay diverged). What the schedule did not record
    /// is admitted as it comes, as in any run.
    private func collectDeliveries(replaying: AdmissionReplay?, quiescent: Bool) {
      guard mailbox.hasNews else { return }
      if let executor = mailbox.rootFinishedOutside {
        statePointer.pointee.rootFinishedOutside(on: executor)
        mailbox.clearRootFinishedOutside()
      }
      if let replaying, !quiescent {
        let state = statePointer
        while let delivery = mailbox.take(where: { delivery in
          !replaying.expectsLater(task: state.pointee.prospectiveLocalID(of: delivery.captured.taskID))
        }) {
          statePointer.pointee.admit(delivery)
        }
      } else {
        for delivery in mailbox.collect() { statePointer.pointee.admit(delivery) }
      }
      hasDeliveries.store(mailbox.hasNews, ordering: .relaxed)
    }

    /// Where the calling thread's work runs, by type name, for ``OutsideWork/executors``: its
    /// serial executor (a custom actor executor), else its task's task executor, else
    /// ``OutsideWork/threadsOutsideSwiftConcurrency``.
    private static func outsideExecutorName() -> String {
      // The executor objects are alive: the calling thread is running a job on them. An unowned
      // task executor is two words, the executor object first.
      if let name = typeName(ofObjectAt: UInt(qt_current_serial_executor_identity())) { return name }
      let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
      if let preferred, let name = typeName(ofObjectAt: unsafeBitCast(preferred, to: (UInt, UInt).self).0) {
        return name
      }
      return OutsideWork.threadsOutsideSwiftConcurrency
    }

    private static func typeName(ofObjectAt address: UInt) -> String? {
      guard let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
      let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
      return String(describing: type(of: object))
    }

    /// A replay's recorded admissions of outside work, and how far it got.
    struct AdmissionReplay {
      let recorded: [Schedule.Admission]
      var next = 0

      func isDue(atStep step: Int) -> Bool {
        next < recorded.count && recorded[next].step <= step
      }

      /// Whether the schedule admits a job of `task` at a step still to come.
      func expectsLater(task: Int) -> Bool {
        recorded[next...].contains { $0.task == task }
      }
    }

    /// For a replay: admits the jobs its schedule recorded at the current step, in their order,
    /// waiting up to `limit` in real time for each to come back. One that does not come in time
    /// (the replay took another path) is admitted whenever it comes, as in a run that records.
    /// Called on the driver thread with `condition` locked.
    private func admitReplayedAdmissions(_ replay: inout AdmissionReplay, waitingUpTo limit: Duration) {
      let step = statePointer.pointee.trace.stepCount
      while replay.isDue(atStep: step) {
        let wanted = replay.recorded[replay.next]
        replay.next += 1
        // A recorded step already passed: the replay took another path.
        guard wanted.step == step else { continue }
        let deadline = Date(timeIntervalSinceNow: Self.seconds(limit))
        while true {
          let state = statePointer
          if let delivery = mailbox.take(where: {
            state.pointee.prospectiveLocalID(of: $0.captured.taskID) == wanted.task
          }) {
            statePointer.pointee.admit(delivery)
            break
          }
          if !condition.wait(until: deadline) { break }
        }
      }
      hasDeliveries.store(mailbox.hasNews, ordering: .relaxed)
    }

    private static func seconds(_ duration: Duration) -> Double {
      let (seconds, attoseconds) = duration.components
      return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The runtime's "generic" executor (identity 0): what the platform passes when it runs a
    /// global job. No public API constructs it; the two-word layout is the ABI of
    /// `UnownedSerialExecutor`.
    private static let genericExecutor = unsafeBitCast((Int(0), Int(0)), to: UnownedSerialExecutor.self)

    /// The executors jobs run on, read once per run rather than through a lazily initialized
    /// static per job.
    private struct RunExecutors {
      let generic = RunLoopCore.genericExecutor
      let task = HarnessTaskExecutor.shared.asUnownedTaskExecutor()
      let main = HarnessMainExecutor.shared.asUnownedSerialExecutor()
    }

    /// Runs `body` on the driver's state if the calling thread drives the active run (nil
    /// otherwise). The jobs it captured since its last step are held first, so the state is
    /// exactly what it would be had each capture gone straight into it.
    @inline(__always)
    private func withDriverState<Result>(_ body: (inout RunState) -> Result) -> Result? {
      guard isDriverThread else { return nil }
      holdDriverCaptures()
      defer { if !statePointer.pointee.newTasks.isEmpty { registerNewTasks() } }
      return body(&statePointer.pointee)
    }

    /// Holds `job` if it belongs to the active run; returns false if the caller must forward it.
    ///
    /// A job enqueued on the driver thread (a new task, a resumption, a yield) belongs to the run;
    /// a job enqueued on another thread does when its task does (see ``RunMailbox``).
    func capture(_ job: UnownedJob, source: Source) -> Bool {
      let taskID = runtimeTaskID(of: job)
      if isDriverThread {
        // Held at the driver's next step, before anything reads the state.
        driverCaptures.pointee.append(
          .init(job: job, taskID: taskID, source: source, note: Self.note(on: job, taskID: taskID)))
        if let targets = statePointer.pointee.cancellationTargets {
          noteCancellationTargets(targets, job: job, taskID: taskID)
        }
        if statePointer.pointee.heldActorDrain { noteEnqueuingTask() }
        return true
      }
      // The code enqueuing it: a task of the run running outside the harness brings what it
      // creates (a task, an actor's drain) into the run.
      let enqueuingTaskID = Self.currentTask()?.id ?? 0
      condition.lock()
      defer { condition.unlock() }
      switch mailbox.capture(
        job, taskID: taskID, source: source, enqueuingTaskID: enqueuingTaskID, executor: Self.outsideExecutorName)
      {
      case .delivered:
        hasDeliveries.store(true, ordering: .relaxed)
        // The driver may be waiting for an outside wake-up.
        condition.signal()
        return true
      case .drop:
        return true
      case .forward:
        return false
      }
    }

    /// What the run must know of a job enqueued on the driver thread beyond its task: whether
    /// its task has a task-executor preference, or whether it is a default actor's processing
    /// job.
    ///
    /// Read from the job's flags word, the one after the two words of executor-private data
    /// (`ExecutorJob.withUnsafeExecutorPrivateData`): the job header is part of the concurrency
    /// runtime's stable ABI. Its low byte is the job kind, the next the priority (both checked
    /// against what the public API says before the word is trusted), and bit 29 of a task's
    /// flags says it has a task-executor preference from its creation (`Task(executorPreference:)`,
    /// or inherited as an `async let` or task-group child). A mismatch gives `.plain`, which
    /// only makes the run's report more cautious (see ``RunResult/inlineHopTasks``).
    @inline(__always)
    private static func note(on job: UnownedJob, taskID: UInt64) -> RunState.JobNote {
      let header = unsafeBitCast(job, to: UnsafeRawPointer.self)
      let flags = header.load(fromByteOffset: 4 * MemoryLayout<Int>.size, as: UInt32.self)
      let kind = flags & 0xFF
      guard (flags >> 8) & 0xFF == UInt32(job.priority.rawValue) else { return .plain }
      if taskID == 0 {
        // DefaultActorInline, DefaultActorSeparate, DefaultActorOverride.
        return (192...194).contains(kind) ? .actorDrain : .plain
      }
      return kind == 0 && flags & (1 << 29) != 0 ? .taskWithPreference : .plain
    }

    /// For a run with cancellation targets: notes the tasks a job enqueued on the driver thread
    /// shows to be targeted. A new task whose first job the root enqueues is one of the root's
    /// children; the current task is learned by name (`Task.name` is only readable for it).
    @inline(never)
    private func noteCancellationTargets(_ targets: CancellationTargets, job: UnownedJob, taskID: UInt64) {
      let current = Self.currentTask()
      let state = statePointer
      if targets.includesChildrenOfRoot, taskID != 0, let current, current.id == state.pointee.rootTaskID,
        taskID != current.id, !state.pointee.knows(taskID)
      {
        state.pointee.noteTarget(taskID, handle: Self.handle(ofTaskJob: job))
      }
      guard let current else { return }
      // The current task's name, the only one the runtime shows: for the trace (failures name
      // cancelled tasks) and for targets by name.
      let name = Task.name
      state.pointee.noteName(ofCurrentTask: current.id, name: name)
      if !targets.names.isEmpty { state.pointee.noteIfTargetedByName(current, name: name) }
    }

    /// A handle on the task whose job `job` is (a task's job is the task object; the runtime reads
    /// its id the same way). Made while the task is alive (its job is being enqueued, or it is
    /// the current task), the handle retains it, so cancelling it later is safe whatever the
    /// task did meanwhile.
    static func handle(ofTaskJob job: UnownedJob) -> Task<Void, Never> {
      unsafeBitCast(job, to: Task<Void, Never>.self)
    }

    /// In a run that held an actor's drain: notes the task enqueuing a job, which may be one the
    /// run never held a job of (see ``RunState/noteCurrentTask(_:)``).
    @inline(never)
    private func noteEnqueuingTask() {
      // During a job of no task (a yield's), the thread's current task is the one that called
      // the run: not the run's.
      guard let current = Self.currentTask(), current.id != driverOuterTaskID, !statePointer.pointee.knows(current.id)
      else { return }
      statePointer.pointee.noteCurrentTask(
        current.id, hasPreference: withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil })
    }

    /// The current task's runtime id and the task as a job, or nil outside a task.
    private static func currentTask() -> (id: UInt64, job: UnownedJob)? {
      withUnsafeCurrentTask { task in
        // `UnsafeCurrentTask` and `UnownedJob` are both one pointer to the task object (a task
        // is a job); the runtime reads the id from it.
        task.map { task in
          let job = unsafeBitCast(task, to: UnownedJob.self)
          return (runtimeTaskID(of: job), job)
        }
      }
    }

    /// Declares that a job of the active run will arrive from another thread; returns false when
    /// no run is active on the calling thread.
    func expectOutsideWakeUp(_ label: String) -> Bool {
      guard isDriverThread else { return false }
      condition.lock()
      mailbox.expectOutsideWakeUp(label)
      condition.unlock()
      return true
    }

    /// Records an event of the current task if it belongs to the active run and happens on the
    /// driver thread; `update` gets the ledger, the task and the run's generation (which item
    /// tokens carry), may change the ledger, and returns the event's kind (nil: none).
    /// Returns the run-local task id, or nil when the event is not the run's.
    @discardableResult
    private func recordFromCurrentTask(
      _ update: (inout WaitLedger, _ task: Int, _ generation: UInt64) -> Trace.Event.Kind?
    ) -> Int? {
      let current = Self.currentTask()
      let name = Task.name
      return withDriverState { state in
        let task = state.localID(of: current?.id ?? 0)
        if let name, state.trace.taskNames[task] == nil { state.trace.taskNames[task] = name }
        if let current, state.cancellationTargets != nil { state.noteIfTargetedByName(current, name: name) }
        // A task seen only through its events so far (one started with `Task.immediate`, say)
        // says here, as the current task, whether it has a task-executor preference.
        if task > 0, !state.hopsAreChoices(of: task), withUnsafeCurrentTask(body: { $0?.unownedTaskExecutor != nil }) {
          state.noteHopsAreChoices(of: task)
        }
        if let kind = update(&state.ledger, task, state.generation) {
          state.trace.append(Trace.Event(step: state.trace.stepCount, task: task, kind: kind, virtualTime: state.now))
        }
        return task
      }
    }

    func itemEnqueued(on queue: QueueDescription, waiting: Bool) -> UInt64? {
      var token: UInt64?
      recordFromCurrentTask { ledger, task, generation in
        let (index, item) = ledger.enqueue(on: queue, by: task, waiting: waiting)
        token = generation << 32 | UInt64(index)
        return .enqueued(item, waiting: waiting)
      }
      return token
    }

    func itemStarted(_ token: UInt64) {
      recordFromCurrentTask { ledger, task, generation in
        guard token >> 32 == generation else { return nil }
        return ledger.start(Int(token & 0xFFFF_FFFF), in: task).map { .started($0) }
      }
    }

    func itemFinished(_ token: UInt64) {
      recordFromCurrentTask { ledger, _, generation in
        guard token >> 32 == generation else { return nil }
        return ledger.finish(Int(token & 0xFFFF_FFFF)).map { .finished($0) }
      }
    }

    /// Records that the current task is about to wait at `label`; false outside a run.
    @discardableResult
    func beginNamedWait(_ label: String) -> Bool {
      recordFromCurrentTask { ledger, task, _ in
        ledger.beginWait(label, task: task)
        return .waits(label)
      } != nil
    }

    func endNamedWait() {
      recordFromCurrentTask { ledger, task, _ in
        ledger.endWait(task: task)
        return nil
      }
    }

    /// Records a mark of code under test; false outside a run (or off the driver thread).
    @discardableResult
    func mark(_ label: String) -> Bool {
      recordFromCurrentTask { _, _, _ in .mark(label) } != nil
    }

    /// The trace of the active run so far, when called from its driver thread; nil otherwise.
    var traceSoFar: Trace? {
      withDriverState { $0.trace }
    }

    /// The active run's virtual time, or nil outside a run.
    var virtualNow: UInt64? {
      if let now = withDriverState({ $0.now }) { return now }
      condition.lock()
      defer { condition.unlock() }
      return mailbox.isActive ? mailbox.virtualTime : nil
    }

    /// What a watchdog on another thread may know of the job running now: how many jobs the
    /// process's runs have started (it stops moving while a job runs), and the run-local task and
    /// step of the last one; nil between runs. Read without a lock, so a value may be one job old.
    var jobInProgress: (jobsStarted: Int, task: Int, step: Int)? {
      guard driverThread.load(ordering: .relaxed) != 0 else { return nil }
      return (
        jobsStarted.load(ordering: .relaxed), runningTask.load(ordering: .relaxed), runningStep.load(ordering: .relaxed)
      )
    }

    /// Clock sleeps for a process's first, private run, before any run of the caller's.
    ///
    /// A sleep on a real clock reaches the harness as an absolute instant, and its virtual delay is
    /// measured against the real clock when it arrives: the microseconds the runtime spends between
    /// the sleeping code's `clock.now` and that enqueue are absorbed by rounding delays up to whole
    /// milliseconds. A process's first such sleep spent 50–70 µs there (lazy symbol binding,
    /// metadata and conformance lookups), and under load one was preempted inside that window for
    /// 5 ms: its virtual deadline came out 4 ms early, and the same seed gave another trace in a
    /// fresh process. Warm, the window is a few microseconds. (A replay does not measure: its
    /// schedule carries each timer's delay.)
    private static let clockSleepWarmUp: @Sendable () async -> Void = {
      try? await Task.sleep(for: .microseconds(1))
      try? await Task.sleep(until: .now + .microseconds(1), clock: .suspending)
    }

    /// Records that the run's root body returned. On a thread other than the driver (the body
    /// ran on an executor of its own, under `withTaskExecutorPreference`, say), the driver learns
    /// it through the mailbox and counts it as work outside the harness.
    func markRootDone() {
      if withDriverState({ $0.rootDone = true }) != nil { return }
      let current = Self.currentTask()?.id ?? 0
      let executor = Self.outsideExecutorName()
      condition.lock()
      if mailbox.rootFinished(byTask: current, executor: executor) {
        hasDeliveries.store(true, ordering: .relaxed)
        condition.signal()
      }
      condition.unlock()
    }

    /// Runs `body` under control on the calling thread, which becomes the driver, and returns when
    /// the root task finished, the run deadlocked, or the step budget ran out.
    func run<Strategy: ScheduleStrategy>(
      strategy: inout Strategy,
      stepBudget: Int,
      outsideWakeUpTimeout: Duration,
      outsideWorkTimeout: Duration = .zero,
      cancelling targets: CancellationTargets? = nil,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      let policy = Self.hopPolicy
      runSlot.lock()
      defer { runSlot.unlock() }

      condition.lock()
      let installing = !installed
      if installing {
        // Once per process, before the first run: other threads read the factory, so it is never
        // swapped back; outside a run the harness executors forward everything.
        _createExecutors(factory: HarnessExecutorFactory.self)
        QueueObservation.install(HarnessQueueObserver())
        installed = true
      }
      condition.unlock()
      if installing {
        // One short run of clock sleeps, on this thread, before the process's first run: it needs
        // no other thread (a warm-up that waited for the cooperative pool stalled when the pool's
        // threads were this one and a test waiting for the run slot).
        var warmUp = ReplayStrategy(Schedule(choices: []))
        _ = drive(
          strategy: &warmUp, policy: policy, stepBudget: 1_000, outsideWakeUpTimeout: .zero, outsideWorkTimeout: .zero,
          targets: nil, Self.clockSleepWarmUp)
      }
      return drive(
        strategy: &strategy, policy: policy, stepBudget: stepBudget, outsideWakeUpTimeout: outsideWakeUpTimeout,
        outsideWorkTimeout: outsideWorkTimeout, targets: targets, body)
    }

    /// Runs `body` under control on the calling thread, which holds `runSlot` and becomes the
    /// driver; see ``run(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:cancelling:_:)``.
    private func drive<Strategy: ScheduleStrategy>(
      strategy: inout Strategy,
      policy: HopPolicy,
      stepBudget: Int,
      outsideWakeUpTimeout: Duration,
      outsideWorkTimeout: Duration,
      targets: CancellationTargets?,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      condition.lock()
      mailbox.begin()
      hasDeliveries.store(false, ordering: .relaxed)
      driverThread.store(Self.threadID(), ordering: .relaxed)
      condition.unlock()
      statePointer.pointee.begin(
        cancellationTargets: targets, outsideWorkTimeout: outsideWorkTimeout,
        replayedTimerDelays: strategy.replayedTimerDelays ?? [])
      driverOuterTaskID = Self.currentTask()?.id ?? 0
      var replay = strategy.replayedAdmissions.map { AdmissionReplay(recorded: $0) }

      // Enqueued from the driver thread while the run is active: captured as the root task. Not
      // detached, so that the body sees the caller's task-local values (Swift Testing's current
      // test and issue handlers among them).
      //
      // The root prefers the harness's task executor, and its structured children inherit the
      // preference: the runtime then never continues such a task inline when it leaves an actor
      // (`swift_task_switch` only takes its fast path when the running context has no task
      // executor, and a default actor's drain takes the drained task's preference as its own),
      // so that hop becomes a job the strategy orders. See ``RunResult/inlineHopTasks`` for
      // tasks without the preference.
      switch policy {
      case .everyHop:
        Task(executorPreference: HarnessTaskExecutor.shared) {
          await body()
          RunLoopCore.shared.markRootDone()
        }
      case .runtimeFastPath:
        Task {
          await body()
          RunLoopCore.shared.markRootDone()
        }
      }
      // Jobs of the default executor run with the harness's task executor as the running
      // context's: `swift_job_run_on_task_executor` forbids switching executors inline, so a hop
      // from nonisolated code onto an idle actor is enqueued on the actor (and its processing job
      // comes here) instead of continuing on this thread unseen. The runtime's own fast path runs
      // them on the generic executor, which allows that switch.
      let jobsOnTaskExecutor = policy == .everyHop

      let executors = RunExecutors()
      var outcome = RunResult.Outcome.completed
      loop: while true {
        holdDriverCaptures()
        if replay?.isDue(atStep: statePointer.pointee.trace.stepCount) == true {
          condition.lock()
          admitReplayedAdmissions(&replay!, waitingUpTo: outsideWakeUpTimeout)
          condition.unlock()
        }
        if hasDeliveries.load(ordering: .relaxed) {
          condition.lock()
          collectDeliveries(replaying: replay, quiescent: false)
          condition.unlock()
        }
        let step: RunState.Step
        if !statePointer.pointee.ready.isEmpty {
          // Something is runnable: the decision needs nothing from the mailbox.
          step = statePointer.pointee.nextStep(
            strategy: &strategy, stepBudget: stepBudget, outsideWakeUpExpected: false)
        } else {
          // Nothing is runnable: what other threads may bring decides between waiting for it,
          // moving virtual time on, and ending the run.
          condition.lock()
          collectDeliveries(replaying: replay, quiescent: true)
          step = statePointer.pointee.nextStep(
            strategy: &strategy, stepBudget: stepBudget,
            outsideWakeUpExpected: !mailbox.expectedOutsideWakeUps.isEmpty)
          mailbox.virtualTime = statePointer.pointee.now
          if case .waitForOutsideWakeUp = step {
            // Waiting is bounded in real time; a wake-up that never comes is its own outcome, not
            // a deadlock.
            let (seconds, attoseconds) = outsideWakeUpTimeout.components
            let limit = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
            if !condition.wait(until: limit) && !mailbox.hasNews {
              outcome = .outsideWakeUpNeverCame(mailbox.expectedOutsideWakeUps)
              condition.unlock()
              break loop
            }
          }
          condition.unlock()
        }
        switch step {
        case .run(let next):
          driverJobCount &+= 1
          runningTask.store(next.task, ordering: .relaxed)
          runningStep.store(statePointer.pointee.trace.stepCount, ordering: .relaxed)
          jobsStarted.store(driverJobCount, ordering: .relaxed)
          if next.isMain {
            next.job.runSynchronously(on: executors.main)
          } else if jobsOnTaskExecutor {
            next.job.runSynchronously(on: executors.task)
          } else {
            next.job.runSynchronously(on: executors.generic)
          }
        case .cancel(let task):
          // Between jobs, on the driver thread: the cancellation handlers run here, and what
          // they wake is captured like any job the driver's own code enqueues.
          task.cancel()
        case .waitForOutsideWakeUp:
          continue loop
        case .waitForOutsideWork(let limit):
          // Bounded in real time; whatever comes is admitted at the next step, and if nothing
          // does, the next decision moves virtual time on or reports the deadlock.
          condition.lock()
          let deadline = Date(timeIntervalSinceNow: Self.seconds(limit))
          while !mailbox.hasNews && condition.wait(until: deadline) {}
          if mailbox.hasNews {
            hasDeliveries.store(true, ordering: .relaxed)
          } else {
            statePointer.pointee.outsideWaitSpent = limit
          }
          condition.unlock()
        case .end(let end):
          outcome = end
          break loop
        }
      }
      holdDriverCaptures()
      condition.lock()
      driverThread.store(0, ordering: .relaxed)
      let undelivered = mailbox.end(completed: outcome == .completed)
      condition.unlock()
      // Jobs woken for the run's tasks after its last step go with the rest of what it holds:
      // handed back if it completed (`undelivered` is empty otherwise).
      for delivery in undelivered { statePointer.pointee.hold(delivery) }
      let (leftovers, result) = statePointer.pointee.end(outcome, strategySummary: strategy.summary)
      for held in leftovers {
        if held.isMain {
          HarnessMainExecutor.forward(held.job)
        } else {
          PlatformExecutorFactory.defaultExecutor.enqueue(ExecutorJob(held.job))
        }
      }
      return result
    }
  }
#endif
