#if compiler(>=6.3)
  @available(ExecutorHooks 1.0, *)
  extension RunState {
    /// The report of a run that deadlocked: who waits on whom, and what else the run knew.
    func deadlockReport() -> DeadlockReport {
      let trace = self.trace
      let (blocked, cycle, never, awaitingFinish) = ledger.analyze(label: { trace.label(ofTask: $0) })
      var report = DeadlockReport(
        blockedTasks: blocked, cycle: cycle, itemsNeverStarted: never, taskCount: tasks.count,
        steps: trace.stepCount, virtualTime: now, lastEvents: trace.lastEvents(10),
        itemsAwaitingFinish: awaitingFinish)
      report.timersThatNeverFire = timers.neverFiring
      report.waitedForOutsideWork = outside.waitSpent
      report.leakedContinuations = outside.leakedContinuations
      report.outsideWork = outside.work
      if blocked.isEmpty {
        let taskCount = tasks.count
        let last = trace.lastEventOfEachTask(taskCount: taskCount)
        report.tasks = (1...max(taskCount, 1)).map { task in
          let what = last[task].map { "\($0.kind.summary) at step \($0.step)" } ?? "no event recorded"
          return "\(trace.label(ofTask: task)): \(what)"
        }
      }
      return report
    }
  }
#endif
