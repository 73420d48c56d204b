#if compiler(>=6.3)
  /// What a ``LinearizabilityCheck`` did: how many scenarios and schedules it ran, the runs the
  /// checker could not decide, and the failure, if one scenario failed.
  public struct LinearizabilityReport<Operation: Sendable, Result: Equatable & Sendable>: Sendable {
    /// The scenarios run (a failure's minimization not counted).
    public var scenariosRun = 0
    /// The schedules run over those scenarios.
    public var schedulesRun = 0
    /// Why the checker could not decide a run, once per run it could not (it hit its state cap
    /// or its time limit): those runs neither passed nor failed.
    public var undecided: [String] = []
    /// Set when a time budget (`QUEUE_TESTING_BUDGET=30s`) stopped the check before its count of
    /// scenarios: which scenarios ran then depends on the machine.
    public var stoppedByTimeBudget: Double?
    /// The failing scenario, made small, and why it fails; nil when every scenario passed.
    public var failure: LinearizabilityFailure<Operation, Result>?
    /// What was wrong with the environment's settings (a misspelt variable), when something was:
    /// nothing ran.
    public var configurationError: String?
    /// Set when a rerun line's scenario and schedule (``LinearizabilityFailure/rerunEnvironment``)
    /// ran without failing.
    public var rerunPassed = false

    /// Whether every scenario passed (undecided runs aside) and the settings were sound.
    public var passed: Bool {
      failure == nil && configurationError == nil
    }

    /// One line: what ran and how it ended.
    public var summary: String {
      if let configurationError { return configurationError }
      var text = "\(scenariosRun) scenario(s), \(schedulesRun) schedule(s)"
      if failure != nil { text += ", a failure" }
      if !undecided.isEmpty { text += "; \(undecided.count) run(s) undecided: \(undecided[0])" }
      if let seconds = stoppedByTimeBudget {
        text += "; stopped by its time budget of \(seconds.formatted()) s (which scenarios ran depends on the machine)"
      }
      return text
    }
  }
#endif
