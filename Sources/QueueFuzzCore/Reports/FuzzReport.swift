import QueueScenarios
import QueueTestingEngine

/// What `queue-fuzz run` and `queue-fuzz stress` found, in the shape `--format json` writes
/// (documented in the README, section "Reports") and `--format junit` renders.
///
/// The shape is versioned by ``formatVersion``: fields may be added in a version, none removed
/// or changed in meaning.
package struct FuzzReport: Codable, Equatable, Sendable {
  /// The options a report was made with.
  package struct Options: Codable, Equatable, Sendable {
    /// Schedules per scenario.
    package var schedules: Int
    /// The seed (`run`: of the schedules; `stress`: of scenarios and schedules).
    package var seed: UInt64
    /// `random`, `pct` or `exhaustive`.
    package var strategy: String
    /// `real` or a mutant's name.
    package var queueImplementation: String
    /// Most jobs per schedule.
    package var stepBudget: Int
    /// Whether each schedule ran twice to compare trace hashes.
    package var checkDeterminism: Bool
    /// `stress`: the shard as `i/n`; nil for `run`.
    package var shard: String?
    /// `stress`: the time budget in seconds, if one was given.
    package var durationSeconds: Double?
    /// `stress`: the scenario count, if one was given (of all shards together).
    package var count: Int?
  }

  /// One broken guarantee.
  package struct Violation: Codable, Equatable, Sendable {
    /// The guarantee's name (`fifo-start`, ...).
    package var guarantee: String
    /// The queue it broke on.
    package var queue: String
    /// The items involved.
    package var items: [String]
    /// The order the guarantee requires.
    package var expected: [String]
    /// The order that happened.
    package var observed: [String]
  }

  /// How big a failing case was before and after shrinking.
  package struct Shrink: Codable, Equatable, Sendable {
    /// Before.
    package var before: ShrinkSize
    /// After.
    package var after: ShrinkSize
    /// The shrunk schedule's text form.
    package var schedule: String
    /// Schedules run while shrinking.
    package var runs: Int
  }

  /// Why a scenario failed, and how to replay it.
  package struct Failure: Codable, Equatable, Sendable {
    /// `guarantee`, `outcome` or `nondeterminism`.
    package var kind: String
    /// The failure's signature (``ScenarioProblem/signature``), e.g. `fifo-start`.
    package var signature: String
    /// One line about what failed.
    package var message: String
    /// Which schedule failed (from 1).
    package var scheduleNumber: Int
    /// The failing schedule's text form.
    package var schedule: String
    /// The failing run's trace hash, in hexadecimal.
    package var traceHash: String
    /// The broken guarantees (kind `guarantee`; left out otherwise).
    package var violations: [Violation]?
    /// The expected outcome (kind `outcome`).
    package var expectedOutcome: String?
    /// What the run did instead (kind `outcome`).
    package var observedOutcome: String?
    /// A command that replays the failure.
    package var replay: String
    /// `stress`: the regression file the shrunk failure was saved to.
    package var savedTo: String?
    /// `stress`: true when the failure shrank to a case saved before (`savedTo` is that file).
    package var duplicate: Bool?
    /// `stress`: the shrink, when the failure was shrunk.
    package var shrink: Shrink?
    /// What the failing run did outside the harness (see `OutsideWork`), e.g. `2 job(s) came back
    /// from work that ran outside the harness (on QueueExecutor)`; left out when it did nothing
    /// there, which is every run of the scenario language.
    package var outsideWork: String?
    /// The deadlock report, when the failing run deadlocked (who waits on whom).
    package var deadlock: String?
  }

  /// One scenario's result.
  package struct ScenarioResult: Codable, Equatable, Sendable {
    /// The scenario's name.
    package var name: String
    /// Its file (`run`), nil for a generated scenario.
    package var path: String?
    /// `stress`: the scenario's index in the seed's sequence (from 0).
    package var index: Int?
    /// `passed` or `failed`.
    package var status: String
    /// Schedules run (up to and including a failing one).
    package var schedules: Int
    /// Exhaustive strategy: whether the whole space was run.
    package var exhausted: Bool?
    /// Real time taken, in seconds.
    package var seconds: Double
    /// The failure, if any.
    package var failure: Failure?
    /// Distinct interleavings (distinct trace hashes) among the schedules run (added in format 1).
    package var distinctTraces: Int?
    /// Schedules run since the last one that gave a new interleaving (added in format 1).
    package var schedulesSinceNewTrace: Int?
  }

  /// Totals.
  package struct Summary: Codable, Equatable, Sendable {
    /// Scenarios run.
    package var scenarios: Int
    /// Scenarios that passed.
    package var passed: Int
    /// Scenarios that failed.
    package var failed: Int
    /// Schedules run in all.
    package var schedules: Int
    /// Real time taken, in seconds.
    package var seconds: Double
    /// Schedules per second.
    package var schedulesPerSecond: Double
    /// Whether Ctrl-C (SIGINT) ended the run early.
    package var interrupted: Bool
    /// `stress`: what ended the session: `count`, `duration`, `interrupted` or `memory-limit`.
    package var stopReason: String?
  }

  /// A scenario file that could not be read, or a path that names nothing: nothing was run.
  package struct InputError: Codable, Equatable, Sendable {
    /// The file or path, as given.
    package var path: String
    /// The line of the problem, from 1 (nil for a path that names nothing).
    package var line: Int?
    /// The column, from 1.
    package var column: Int?
    /// What was wrong and what was expected.
    package var message: String
  }

  /// Always `queue-fuzz`.
  package var tool = "queue-fuzz"
  /// The version of this shape.
  package var formatVersion = 1
  /// `run` or `stress`.
  package var command: String
  /// The options used.
  package var options: Options
  /// Each scenario, in the order run.
  package var scenarios: [ScenarioResult]
  /// Totals.
  package var summary: Summary
  /// `run`: what made the input unusable, when it was (then nothing ran, and `summary.stopReason`
  /// is `invalid-input`); left out otherwise.
  package var inputErrors: [InputError]? = nil
}
