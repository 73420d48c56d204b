#if compiler(>=6.3)
  import Foundation
  import Testing

  /// Runs `check` and records its failure in the current Swift Testing test: the failing
  /// scenario made small, as a table with each operation's result, where the model first
  /// disagrees, the interleaving, and a line that reruns that scenario and schedule alone; the
  /// failing schedule's trace and picture are attached. Runs the checker could not decide, and a
  /// rerun that passed, are warnings.
  ///
  /// See ``LinearizabilityCheck`` for an example, and <doc:CheckingYourOwnType>. `scenario`, when
  /// given, is run instead of the check's random ones (see ``LinearizabilityCheck/run(_:environment:)``).
  ///
  /// Call it from a test without `.controlledScheduling()`: the check runs the harness itself.
  /// On a system older than controlled runs need, the test fails with
  /// ``ControlledScheduling/unsupportedSystemMessage(testName:)`` and nothing runs.
  /// - Returns: The report (nil on such a system).
  @discardableResult
  public func expectLinearizable<Model: SequentialModel, Subject: Sendable>(
    _ check: LinearizabilityCheck<Model, Subject>, scenario: OperationScenario<Model.Operation>? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> LinearizabilityReport<Model.Operation, Model.Result>? {
    guard !ControlledScheduling.simulatesUnsupportedSystem, #available(ExecutorHooks 1.0, *) else {
      Issue.record(
        Comment(rawValue: ControlledScheduling.unsupportedSystemMessage(testName: Test.current?.name)),
        sourceLocation: sourceLocation)
      return nil
    }
    guard !ControlledExecutor.isControlling else {
      Issue.record(
        Comment(
          rawValue: "expectLinearizable runs the harness itself, once per scenario: call it from a test without "
            + ".controlledScheduling()"), sourceLocation: sourceLocation)
      return nil
    }
    let report = if let scenario { await check.run(scenario) } else { await check.run() }
    if let error = report.configurationError {
      Issue.record(Comment(rawValue: error), sourceLocation: sourceLocation)
    }
    if report.rerunPassed {
      Issue.record(
        "The rerun scenario and schedule ran without failing.", severity: .warning, sourceLocation: sourceLocation)
    }
    if let reason = report.undecided.first {
      Issue.record(
        Comment(rawValue: "\(report.undecided.count) run(s) were not decided by the checker: \(reason)"),
        severity: .warning, sourceLocation: sourceLocation)
    }
    if let failure = report.failure {
      let testID = Test.current.map { ChildProcessIsolation.testID($0) }
      Issue.record(Comment(rawValue: failure.message(testID: testID)), sourceLocation: sourceLocation)
      if let schedule = failure.schedule {
        let stem = ControlledSchedulingTrait.attachmentStem(
          testName: Test.current?.name, scheduleNumber: schedule.scheduleNumber)
        Attachment.record(schedule.traceText(), named: "\(stem)-trace.txt", sourceLocation: sourceLocation)
        Attachment.record(schedule.chart.html, named: "\(stem).html", sourceLocation: sourceLocation)
      }
    }
    return report
  }
#endif
