#if compiler(>=6.3)
  extension ScheduleFailure where Problem == ScheduleProblem {
    /// The failure for a person: which schedule, what went wrong, and how to replay just it.
    /// - Parameters:
    ///   - testID: The test's full identifier, for the replay line's `swift test --filter` (see
    ///     ``ControlledScheduling/replayCommand(testID:)``); nil: no command.
    ///   - scheduleFile: Where the schedule was saved when it is too long to spell out (see
    ///     ``ControlledScheduling/scheduleFileVariable``): the lines then name the file.
    /// - Returns: The text, several lines.
    public func message(testID: String? = nil, scheduleFile: String? = nil) -> String {
      message(testID: testID, scheduleFile: scheduleFile, arguments: nil)
    }

    /// The same, for one case of a parameterized test: `arguments` (the case's, as
    /// ``ControlledScheduling/argumentsVariable`` takes them) makes the replay line run that
    /// case alone.
    func message(testID: String?, scheduleFile: String?, arguments: String?) -> String {
      let what = problem.summary
      let filter = testID.map { " " + ControlledScheduling.replayCommand(testID: $0, arguments: arguments) } ?? ""
      // A portfolio takes turns between strategies: say which one found the failure.
      let foundBy = series.kind == .portfolio ? run.strategySummary.map { "\nFound by: \($0)" } ?? "" : ""
      let explored =
        "\nExplored: \(coverage.distinctTraces) distinct interleaving(s) in \(coverage.runs) schedule(s)"
      let cancelled = run.cancellationLines.map { "\nCancelled by the schedule: \($0)" }.joined()
      let preemptions = reduction.map { "\nPreemptions: \($0.line(trace: run.trace))" } ?? ""
      // A run with work on real threads may owe its failure to those threads' own timing, which
      // no schedule holds: say what the schedule replays and what it cannot.
      let outside =
        run.outsideWork.isEmpty
        ? ""
        : "\nOutside the harness: \(run.outsideWork). That work ran on real threads: the schedule below "
          + "replays the harness's choices and the steps at which outside work came back, not those "
          + "threads' own timing, so a replay (or the same seed) may take another path"
      return """
        Controlled schedule \(scheduleNumber) failed (\(series)): \(what)\(foundBy)\(cancelled)\(outside)\(explored)\(preemptions)
        \(scheduleLines(filter: filter, scheduleFile: scheduleFile))
        """
    }

    /// The schedule and the replay line, or where the schedule was saved and the replay line
    /// that reads it.
    private func scheduleLines(filter: String, scheduleFile: String?) -> String {
      guard let scheduleFile else {
        return """
          Schedule: \(run.schedule)
          Replay it alone: \(ControlledScheduling.scheduleVariable)='\(run.schedule)'\(filter)
          """
      }
      let quoted = "'" + scheduleFile.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
      return """
        Schedule: \(run.schedule.choices.count) choices, too long to print here; saved in \(scheduleFile)
        Replay it alone: \(ControlledScheduling.scheduleFileVariable)=\(quoted)\(filter)
        """
    }
  }
#endif
