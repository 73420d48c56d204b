#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  import Foundation
  import Synchronization

  // Work from outside the harness: jobs other threads deliver, where they came from, and how a
  // replay admits them at the steps its schedule recorded.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// Admits jobs other threads delivered into the state, in the order they came, and notes a
    /// root that finished outside. Called on the driver thread with `condition` locked.
    ///
    /// A replay (`replaying` not nil) admits a delivery that its schedule recorded at the step
    /// it recorded (see ``admitReplayedAdmissions(of:_:waitingUpTo:)``), not before, unless nothing
    /// can run without it (`quiescent`: the replay diverged). What the schedule did not record
    /// is admitted as it comes, as in any run.
    func collectDeliveries(of run: ControlledRun, replaying: AdmissionReplay?, quiescent: Bool) {
      guard run.mailbox.hasNews else { return }
      if let executor = run.mailbox.rootFinishedOutside {
        statePointer.pointee.rootFinishedOutside(on: executor)
        run.mailbox.clearRootFinishedOutside()
      }
      for isMain in run.mailbox.takeOverstayingJobsReturned() {
        statePointer.pointee.overstayingJobReturned(isMain: isMain)
      }
      if let replaying, !quiescent {
        let state = statePointer
        while let delivery = run.mailbox.take(where: { delivery in
          !replaying.expectsLater(task: state.pointee.prospectiveLocalID(of: delivery.captured.taskID))
        }) {
          statePointer.pointee.admit(delivery)
        }
      } else {
        for delivery in run.mailbox.collect() { statePointer.pointee.admit(delivery) }
      }
      hasDeliveries.store(run.mailbox.hasNews, ordering: .relaxed)
    }

    /// Where the calling thread's work runs, by type name, for ``OutsideWork/executors``: its
    /// serial executor (a custom actor executor), else its task's task executor, else
    /// ``OutsideWork/threadsOutsideSwiftConcurrency``.
    static func outsideExecutorName() -> String {
      // The executor objects are alive: the calling thread is running a job on them. An unowned
      // task executor is two words, the executor object first.
      if let name = typeName(ofObjectAt: ExecutorProbe.currentSerialExecutor) { return name }
      let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
      if let preferred, let name = typeName(ofObjectAt: unsafeBitCast(preferred, to: (UInt, UInt).self).0) {
        return name
      }
      return OutsideWork.threadsOutsideSwiftConcurrency
    }

    static func typeName(ofObjectAt address: UInt) -> String? {
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
    func admitReplayedAdmissions(
      of run: ControlledRun, _ replay: inout AdmissionReplay, waitingUpTo limit: Duration
    ) {
      let step = statePointer.pointee.trace.stepCount
      while replay.isDue(atStep: step) {
        let wanted = replay.recorded[replay.next]
        replay.next += 1
        // A recorded step already passed: the replay took another path.
        guard wanted.step == step else { continue }
        let deadline = Date(timeIntervalSinceNow: limit.seconds)
        while true {
          let state = statePointer
          if let delivery = run.mailbox.take(where: {
            state.pointee.prospectiveLocalID(of: $0.captured.taskID) == wanted.task
          }) {
            statePointer.pointee.admit(delivery)
            break
          }
          if !condition.wait(until: deadline) { break }
        }
      }
      hasDeliveries.store(run.mailbox.hasNews, ordering: .relaxed)
    }

    /// Declares that a job of the active run will arrive from another thread; returns false when
    /// no run is active on the calling thread.
    func expectOutsideWakeUp(_ label: String) -> Bool {
      if enterDriverState() {
        defer { leaveDriverState() }
        condition.lock()
        activeRun?.mailbox.expectOutsideWakeUp(label)
        condition.unlock()
        return true
      }
      // A job that overstayed its slice declares it from its own thread (see `RunDriver+Overstay`).
      condition.lock()
      defer { condition.unlock() }
      let thread = Self.threadID()
      guard let run = activeRun, run.mailbox.hasOverstayingJob(onThread: thread)
      else { return false }
      run.mailbox.expectOutsideWakeUp(label)
      return true
    }
  }
#endif
