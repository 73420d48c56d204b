#if compiler(>=6.3)
  import QueueTestingEngine

  /// The first schedule under which a scenario failed, and how.
  package typealias ScenarioFailure = ScheduleFailure<ScenarioProblem>

  /// How a scenario failed under one schedule: what queue-fuzz checks that a test does not.
  package enum ScenarioProblem: Equatable, Sendable {
    /// Ordering guarantees of the queues were broken (see ``Guarantee``).
    case guarantees([OrderingViolation])
    /// The run ended otherwise than the scenario expects.
    case unexpectedOutcome(expected: Scenario.Outcome, observed: RunResult.Outcome)
    /// The same schedule, run twice, gave two different traces: something outside the
    /// schedule's control (state kept between runs, real time, an uncaptured thread) changed
    /// the run.
    case nondeterminism(firstHash: UInt64, secondHash: UInt64)

    /// What makes this failure the failure it is, as words (the kind first): `guarantees` and
    /// the broken guarantees' names, sorted; `outcome` and what the run did instead (`completes`,
    /// `deadlocks`, `step-budget`, or `outside-wake-up` for a run that ended any other way); or
    /// `nondeterminism`.
    private var words: [String] {
      switch self {
      case .guarantees(let violations): ["guarantees"] + Self.brokenGuarantees(violations)
      case .unexpectedOutcome(_, let observed): ["outcome", Self.outcomeWord(observed)]
      case .nondeterminism: ["nondeterminism"]
      }
    }

    /// The word for how a run ended that a failure's identity keeps.
    private static func outcomeWord(_ outcome: RunResult.Outcome) -> String {
      switch outcome {
      case .completed: "completes"
      case .deadlocked: "deadlocks"
      case .stepBudgetExceeded: "step-budget"
      case .outsideWakeUpNeverCame, .stuck, .foreignExecutorHook: "outside-wake-up"
      }
    }

    /// How a run ended, in the words of a scenario's outcome (`completes`, `deadlocks`) or a
    /// phrase such as `step budget exceeded after N steps`: what a report says was observed.
    package static func describe(_ outcome: RunResult.Outcome) -> String {
      switch outcome {
      case .completed: "completes"
      case .deadlocked: "deadlocks"
      case .stepBudgetExceeded(let steps): "step budget exceeded after \(steps) steps"
      case .outsideWakeUpNeverCame(let labels): "outside wake-up never came (\(labels.joined(separator: ", ")))"
      case .stuck(let job): "stuck (\(job))"
      case .foreignExecutorHook(let message): message
      }
    }

    /// What failed, as a stable word for reports: the broken guarantees' names (comma-separated),
    /// `outcome:` and what the run did (`outcome:deadlocks`), or `nondeterminism`.
    package var signature: String {
      let words = self.words
      switch self {
      case .guarantees: return words.dropFirst().joined(separator: ",")
      case .unexpectedOutcome: return "outcome:" + words[1]
      case .nondeterminism: return words[0]
      }
    }

    /// The names of the guarantees `violations` break, sorted, each once.
    private static func brokenGuarantees(_ violations: [OrderingViolation]) -> [String] {
      Set(violations.compactMap(\.guarantee?.rawValue)).sorted()
    }

    /// What a shrinker keeps failing: the first broken guarantee alone (the shrunk case may break
    /// others too), or the whole failure otherwise.
    package var keptIdentity: FailureIdentity {
      keptGuarantee.map { FailureIdentity(["guarantees", $0.rawValue]) } ?? identity
    }

    /// What a shrinker keeps failing, for a person: the guarantee's name, or the ``signature``.
    package var keptDescription: String {
      keptGuarantee?.rawValue ?? signature
    }

    /// The first broken guarantee, which a shrinker keeps failing; nil for another failure.
    private var keptGuarantee: Guarantee? {
      if case .guarantees(let violations) = self { violations.first?.guarantee } else { nil }
    }

    /// What makes this failure the failure it is (see ``FailureIdentity``).
    package var identity: FailureIdentity { FailureIdentity(words) }

    /// Whether this failure fails at least the way `kept` says (see ``keptIdentity``).
    package func fails(like kept: FailureIdentity) -> Bool {
      identity.includes(kept)
    }

    /// What failed, for a person, in one line.
    package var summary: String {
      switch self {
      case .guarantees(let violations):
        Self.brokenGuarantees(violations).joined(separator: ", ")
      case .unexpectedOutcome(let expected, let observed):
        "outcome: expected \(expected.rawValue), observed \(Self.describe(observed))"
      case .nondeterminism(let first, let second):
        "nondeterminism: the same schedule gave trace hashes \(String(first, radix: 16)) and \(String(second, radix: 16))"
      }
    }
  }

  extension ScenarioProblem: SeriesProblem {
    /// Always: a scenario's code is all Swift concurrency the harness controls.
    package var allowsAnotherRun: Bool { true }

    /// The guarantees broken, or what the run did instead of what was expected: where a
    /// scenario's failure was recorded adds nothing.
    package func identity(recordedAt locations: [String]) -> FailureIdentity {
      identity
    }
  }
#endif
