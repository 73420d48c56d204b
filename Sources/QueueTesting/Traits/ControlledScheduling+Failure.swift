#if compiler(>=6.3)
  extension ScheduleFailure {
    /// The failure for a person: which schedule, what went wrong, and how to replay just it.
    /// - Parameter testID: The test's full identifier, for the replay line's `swift test
    ///   --filter` (see ``ControlledScheduling/replayCommand(testID:)``); nil: no command.
    public func message(testID: String? = nil) -> String {
      let what = problem.summary
      let filter = testID.map { " " + ControlledScheduling.replayCommand(testID: $0) } ?? ""
      // A portfolio takes turns between strategies: say which one found the failure.
      let foundBy = series.kind == .portfolio ? run.strategySummary.map { "\nFound by: \($0)" } ?? "" : ""
      let explored =
        "\nExplored: \(coverage.distinctTraces) distinct interleaving(s) in \(coverage.runs) schedule(s)"
      let cancelled = run.cancellationLines.map { "\nCancelled by the schedule: \($0)" }.joined()
      let preemptions = reduction.map { "\nPreemptions: \($0.line(trace: run.trace))" } ?? ""
      let outside =
        run.outsideWork.isEmpty
        ? ""
        : "\nOutside the harness: \(run.outsideWork); that work ran on real threads, so the schedule "
          + "below replays this run (it records when each job came back) but a seed may not"
      return """
        Controlled schedule \(scheduleNumber) failed (\(series)): \(what)\(foundBy)\(cancelled)\(outside)\(explored)\(preemptions)
        Schedule: \(run.schedule)
        Replay it alone: \(ControlledScheduling.scheduleVariable)='\(run.schedule)'\(filter)
        """
    }
  }
#endif
