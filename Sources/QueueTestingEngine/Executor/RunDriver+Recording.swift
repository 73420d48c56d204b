#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  import Foundation
  import Synchronization

  // Recording what the current task does (queue items, named waits, marks) into the run's trace
  // and wait ledger, and what a watchdog on another thread may read of the run.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// Records an event of the current task if it belongs to the active run and happens on the
    /// driver thread; `update` gets the ledger, the task and the run's generation (which item
    /// tokens carry), may change the ledger, and returns the event's kind (nil: none).
    /// Returns the run-local task id, or nil when the event is not the run's.
    @discardableResult
    func recordFromCurrentTask(
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
          state.trace.append(Trace.Event(step: state.steps, task: task, kind: kind, virtualTime: state.now))
        }
        return task
      }
    }

    func itemEnqueued(on queue: QueueDescription, waiting: Bool, barrier: Bool = false) -> UInt64? {
      var token: UInt64?
      recordFromCurrentTask { ledger, task, generation in
        let (index, item) = ledger.enqueue(on: queue, by: task, waiting: waiting, barrier: barrier)
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
      if let trace = withDriverState({ $0.trace }) { return trace }
      // A run that left one-job-at-a-time recorded up to that step (see `RunDriver+Overstay`).
      condition.lock()
      defer { condition.unlock() }
      guard let run = activeRun, run.mailbox.leftOneJobAtATime else { return nil }
      return run.traceAtLeaving
    }

    /// The active run's virtual time, or nil outside a run.
    var virtualNow: UInt64? {
      if let now = withDriverState({ $0.now }) { return now }
      condition.lock()
      defer { condition.unlock() }
      return activeRun?.mailbox.virtualTime
    }

    /// What a watchdog on another thread may know of the job running now: how many jobs the
    /// process's runs have started (it stops moving while a job runs), and the run-local task and
    /// step of the last one; nil between runs. Read without a lock, so a value may be one job old.
    var jobInProgress: (jobsStarted: Int, task: Int, step: Int)? {
      // While a watcher hands the run over (it left one-job-at-a-time), no thread drives, but the
      // job goes on; jobs that overstayed and returned count as progress too.
      guard driverThread.load(ordering: .relaxed) != 0 || jobPhase.load(ordering: .relaxed) == Self.leftPhase
      else { return nil }
      return (progress, runningTask.load(ordering: .relaxed), runningStep.load(ordering: .relaxed))
    }

    /// Records that the run's root body returned. On a thread other than the driver (the body
    /// ran on an executor of its own, under `withTaskExecutorPreference`, say), the driver learns
    /// it through the mailbox and counts it as work outside the harness.
    func markRootDone() {
      if withDriverState({ $0.rootDone = true }) != nil { return }
      let current = Self.currentTask()?.id ?? 0
      let executor = Self.outsideExecutorName()
      condition.lock()
      if activeRun?.mailbox.rootFinished(byTask: current, executor: executor) == true {
        hasDeliveries.store(true, ordering: .relaxed)
        condition.broadcast()
      }
      condition.unlock()
    }
  }
#endif
