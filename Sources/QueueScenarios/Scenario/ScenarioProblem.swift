#if compiler(>=6.3)
  import QueueTestingEngine

  /// The first schedule under which a scenario failed, and how.
  package typealias ScenarioFailure = ScheduleFailure<ScenarioProblem>

  /// How a scenario failed under one schedule: what queue-fuzz checks that a test does not.
  package enum ScenarioProblem: Equatable, Sendable {
    /// Ordering guarantees of the queues were broken (see ``Guarantee``).
    case guarantees([OrderingViolation])
    /// The run ended otherwise than expected: `expected` and `observed` are words such as
    /// `completes`, `deadlocks` or `step budget exceeded after N steps`.
    case unexpectedOutcome(expected: String, observed: String)
    /// The same schedule, run twice, gave two different traces: something outside the
    /// schedule's control (state kept between runs, real time, an uncaptured thread) changed
    /// the run.
    case nondeterminism(firstHash: UInt64, secondHash: UInt64)

    /// What failed, as a stable word: the broken guarantees' names (sorted, comma-separated),
    /// `outcome:` and what the run did (`outcome:deadlocks`, `outcome:completes`,
    /// `outcome:step-budget`, `outcome:outside-wake-up`), or `nondeterminism`. A shrinker keeps
    /// a failure of the same signature.
    package var signature: String {
      switch self {
      case .guarantees(let violations):
        Self.brokenGuarantees(violations).joined(separator: ",")
      case .unexpectedOutcome(_, let observed):
        if observed == "completes" || observed == "deadlocks" {
          "outcome:" + observed
        } else if observed.hasPrefix("step budget") {
          "outcome:step-budget"
        } else {
          "outcome:outside-wake-up"
        }
      case .nondeterminism: "nondeterminism"
      }
    }

    /// The names of the guarantees `violations` break, sorted, each once.
    private static func brokenGuarantees(_ violations: [OrderingViolation]) -> [String] {
      Set(violations.compactMap(\.guarantee?.rawValue)).sorted()
    }

    /// Whether this failure includes `word`, one of the comma-separated words of a
    /// ``signature`` (a guarantee's name, `outcome:deadlocks`, `nondeterminism`, ...).
    package func includes(_ word: String) -> Bool {
      signature.split(separator: ",").contains { $0 == word }
    }

    /// What failed, for a person, in one line.
    package var summary: String {
      switch self {
      case .guarantees(let violations):
        Self.brokenGuarantees(violations).joined(separator: ", ")
      case .unexpectedOutcome(let expected, let observed):
        "outcome: expected \(expected), observed \(observed)"
      case .nondeterminism(let first, let second):
        "nondeterminism: the same schedule gave trace hashes \(String(first, radix: 16)) and \(String(second, radix: 16))"
      }
    }
  }

  extension ScenarioProblem: SeriesProblem {
    /// Always: a scenario's code is all Swift concurrency the harness controls.
    package var allowsAnotherRun: Bool { true }

    /// Its signature: the guarantees broken, or what the run did instead of what was expected.
    package func identity(recordedAt locations: [String]) -> FailureIdentity {
      FailureIdentity([signature])
    }
  }
#endif
