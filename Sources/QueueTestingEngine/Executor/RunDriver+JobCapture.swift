#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  import Foundation
  import Synchronization

  /// The runtime's id of the task a job belongs to (0 for a job that is not a task). The standard
  /// library reads it the same way; the runtime exports the symbol, and no public API offers it.
  /// The standard library binds it from macOS 14 / iOS 17 on (`UnownedJob.description` has that
  /// availability), so every Apple runtime this harness can run on exports it.
  @available(ExecutorHooks 1.0, *)
  @_silgen_name("swift_task_getJobTaskId")
  private func runtimeTaskID(of job: UnownedJob) -> UInt64

  // Taking jobs in: which jobs are the run's, and what their headers say about them.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// Holds `job` if it belongs to the active run; returns false if the caller must forward it.
    ///
    /// A job enqueued on the driver thread (a new task, a resumption, a yield) belongs to the run;
    /// a job enqueued on another thread does when its task does (see ``RunMailbox``).
    func capture(_ job: UnownedJob, source: Source) -> Bool {
      let taskID = runtimeTaskID(of: job)
      if enterDriverState() {
        defer { leaveDriverState() }
        // Held at the driver's next step, before anything reads the state.
        driverCaptures.pointee.append(
          .init(job: job, taskID: taskID, source: source, note: Self.note(on: job, taskID: taskID)))
        if let targets = statePointer.pointee.cancellationTargets {
          noteCancellationTargets(targets, job: job, taskID: taskID)
        }
        if statePointer.pointee.heldActorDrain { noteEnqueuingTask() }
        if taskID == 0, case .actorDrain = Self.note(on: job, taskID: 0) {
          // The drain of the actor a task just hopped onto (the hop was noted first).
          statePointer.pointee.actorWork.noteDrainScheduled(
            job: UInt(bitPattern: unsafeBitCast(job, to: UnsafeRawPointer.self)), actor: ActorHopProbe.lastActorEntered,
            typeName: Self.typeName(ofActor:))
        }
        return true
      }
      // The code enqueuing it: a task of the run running outside the harness brings what it
      // creates (a task, an actor's drain) into the run.
      let enqueuingTaskID = Self.currentTask()?.id ?? 0
      condition.lock()
      defer { condition.unlock() }
      if rootMaker == Self.threadID() {
        // The root task of a watched run, made on the thread that asked for the run (see
        // `runWatched`): its first job waits for the driver.
        pendingRoot = .init(job: job, taskID: taskID, source: source, note: Self.note(on: job, taskID: taskID))
        rootMaker = 0
        return true
      }
      // A job of an abandoned task is dropped, never run; anything else not the run's, the
      // platform runs.
      guard let run = activeRun else { return abandonedTasks.drops(taskID: taskID) }
      let overstaying = run.mailbox.hasOverstayingJob(onThread: Self.threadID())
      if run.mailbox.capture(
        job, taskID: taskID, source: source, enqueuingTaskID: enqueuingTaskID,
        executor: { overstaying ? OutsideWork.overstayingJob : Self.outsideExecutorName() })
      {
        hasDeliveries.store(true, ordering: .relaxed)
        // The driver may be waiting for an outside wake-up (and, in a run that left
        // one-job-at-a-time, the thread that began it for the run's end, on the same condition).
        condition.broadcast()
        return true
      }
      return abandonedTasks.drops(taskID: taskID)
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
    static func note(on job: UnownedJob, taskID: UInt64) -> RunState.JobNote {
      let header = unsafeBitCast(job, to: UnsafeRawPointer.self)
      let flags = header.load(fromByteOffset: 4 * MemoryLayout<Int>.size, as: UInt32.self)
      let kind = flags & 0xFF
      guard (flags >> 8) & 0xFF == UInt32(job.priority.rawValue) else { return .plain }
      if taskID == 0 {
        // DefaultActorInline, DefaultActorSeparate, DefaultActorOverride.
        if (192...194).contains(kind) { return .actorDrain }
        // NullaryContinuation: `Task.yield()` enqueues one on the current executor, and running
        // it resumes the yielding task, which is the current task now. (`Task.sleep` makes one
        // too, but as a timer.)
        if kind == 195, let yielding = currentTask()?.id { return .yield(of: yielding) }
        return .plain
      }
      return kind == 0 && flags & (1 << 29) != 0 ? .taskWithPreference : .plain
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
    func noteEnqueuingTask() {
      // During a job of no task (a yield's), the thread's current task is the one that called
      // the run: not the run's.
      guard let current = Self.currentTask(), current.id != activeRun?.outerTaskID,
        !statePointer.pointee.knows(current.id)
      else { return }
      statePointer.pointee.noteCurrentTask(
        current.id, hasPreference: withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil })
    }

    /// Moves the hops onto and off actors noted during `step` into the run's ``ActorWork``.
    @inline(never)
    func takeActorHops(step: Int) {
      ActorHopProbe.takeHops { hop in
        statePointer.pointee.actorWork.noteHop(
          task: hop.task, from: hop.from, to: hop.to, step: step, typeName: Self.typeName(ofActor:))
      }
    }

    /// The type of the actor whose identity (its object's address) is `identity`, unqualified;
    /// read while a task enters or leaves the actor, so the object is alive.
    static func typeName(ofActor identity: UInt) -> String {
      guard let pointer = UnsafeRawPointer(bitPattern: identity) else { return "actor" }
      let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
      return _typeName(type(of: object), qualified: false)
    }

    /// The current task's runtime id and the task as a job, or nil outside a task.
    static func currentTask() -> (id: UInt64, job: UnownedJob)? {
      withUnsafeCurrentTask { task in
        // `UnsafeCurrentTask` and `UnownedJob` are both one pointer to the task object (a task
        // is a job); the runtime reads the id from it.
        task.map { task in
          let job = unsafeBitCast(task, to: UnownedJob.self)
          return (runtimeTaskID(of: job), job)
        }
      }
    }
  }
#endif
