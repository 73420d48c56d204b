import QueueScenarios
import QueueTestingEngine

/// What `queue-fuzz run` and `queue-fuzz stress` found, in the shape `--format json` writes
/// (documented in the README, section "Reports") and `--format junit` renders.
///
/// The shape is versioned by ``formatVersion``: fields may be added in a version, none removed
/// or changed in meaning.
public struct FuzzReport: Codable, Equatable, Sendable {
  /// The options a report was made with.
  public struct Options: Codable, Equatable, Sendable {
    /// Schedules per scenario.
    public var schedules: Int
    /// The seed (`run`: of the schedules; `stress`: of scenarios and schedules).
    public var seed: UInt64
    /// `random`, `pct` or `exhaustive`.
    public var strategy: String
    /// `real` or a mutant's name.
    public var queueImplementation: String
    /// Most jobs per schedule.
    public var stepBudget: Int
    /// Whether each schedule ran twice to compare trace hashes.
    public var checkDeterminism: Bool
    /// `stress`: the shard as `i/n`; nil for `run`.
    public var shard: String?
    /// `stress`: the time budget in seconds, if one was given.
    public var durationSeconds: Double?
    /// `stress`: the scenario count, if one was given (of all shards together).
    public var count: Int?
  }

  /// One broken guarantee.
  public struct Violation: Codable, Equatable, Sendable {
    /// The guarantee's name (`fifo-start`, ...).
    public var guarantee: String
    /// The queue it broke on.
    public var queue: String
    /// The items involved.
    public var items: [String]
    /// The order the guarantee requires.
    public var expected: [String]
    /// The order that happened.
    public var observed: [String]
  }

  /// How big a failing case was before and after shrinking.
  public struct Shrink: Codable, Equatable, Sendable {
    /// Before.
    public var before: ShrinkSize
    /// After.
    public var after: ShrinkSize
    /// The shrunk schedule's text form.
    public var schedule: String
    /// Schedules run while shrinking.
    public var runs: Int
  }

  /// Why a scenario failed, and how to replay it.
  public struct Failure: Codable, Equatable, Sendable {
    /// `guarantee`, `outcome` or `nondeterminism`.
    public var kind: String
    /// The failure's signature (``ScenarioProblem/signature``), e.g. `fifo-start`.
    public var signature: String
    /// One line about what failed.
    public var message: String
    /// Which schedule failed (from 1).
    public var scheduleNumber: Int
    /// The failing schedule's text form.
    public var schedule: String
    /// The failing run's trace hash, in hexadecimal.
    public var traceHash: String
    /// The broken guarantees (kind `guarantee`; left out otherwise).
    public var violations: [Violation]?
    /// The expected outcome (kind `outcome`).
    public var expectedOutcome: String?
    /// What the run did instead (kind `outcome`).
    public var observedOutcome: String?
    /// A command that replays the failure.
    public var replay: String
    /// `stress`: the regression file the shrunk failure was saved to.
    public var savedTo: String?
    /// `stress`: true when the failure shrank to a case saved before (`savedTo` is that file).
    public var duplicate: Bool?
    /// `stress`: the shrink, when the failure was shrunk.
    public var shrink: Shrink?
    /// What the failing run did outside the harness (see `OutsideWork`), e.g. `2 job(s) came back
    /// from work that ran outside the harness (on QueueExecutor)`; left out when it did nothing
    /// there, which is every run of the scenario language.
    public var outsideWork: String?
    /// The deadlock report, when the failing run deadlocked (who waits on whom).
    public var deadlock: String?
  }

  /// One scenario's result.
  public struct ScenarioResult: Codable, Equatable, Sendable {
    /// The scenario's name.
    public var name: String
    /// Its file (`run`), nil for a generated scenario.
    public var path: String?
    /// `stress`: the scenario's index in the seed's sequence (from 0).
    public var index: Int?
    /// `passed` or `failed`.
    public var status: String
    /// Schedules run (up to and including a failing one).
    public var schedules: Int
    /// Exhaustive strategy: whether the whole space was run.
    public var exhausted: Bool?
    /// Real time taken, in seconds.
    public var seconds: Double
    /// The failure, if any.
    public var failure: Failure?
    /// Distinct interleavings (distinct trace hashes) among the schedules run (added in format 1).
    public var distinctTraces: Int?
    /// Schedules run since the last one that gave a new interleaving (added in format 1).
    public var schedulesSinceNewTrace: Int?
  }

  /// Totals.
  public struct Summary: Codable, Equatable, Sendable {
    /// Scenarios run.
    public var scenarios: Int
    /// Scenarios that passed.
    public var passed: Int
    /// Scenarios that failed.
    public var failed: Int
    /// Schedules run in all.
    public var schedules: Int
    /// Real time taken, in seconds.
    public var seconds: Double
    /// Schedules per second.
    public var schedulesPerSecond: Double
    /// Whether Ctrl-C (SIGINT) ended the run early.
    public var interrupted: Bool
    /// `stress`: what ended the session: `count`, `duration`, `interrupted` or `memory-limit`.
    public var stopReason: String?
  }

  /// A scenario file that could not be read, or a path that names nothing: nothing was run.
  public struct InputError: Codable, Equatable, Sendable {
    /// The file or path, as given.
    public var path: String
    /// The line of the problem, from 1 (nil for a path that names nothing).
    public var line: Int?
    /// The column, from 1.
    public var column: Int?
    /// What was wrong and what was expected.
    public var message: String
  }

  /// Always `queue-fuzz`.
  public var tool = "queue-fuzz"
  /// The version of this shape.
  public var formatVersion = 1
  /// `run` or `stress`.
  public var command: String
  /// The options used.
  public var options: Options
  /// Each scenario, in the order run.
  public var scenarios: [ScenarioResult]
  /// Totals.
  public var summary: Summary
  /// `run`: what made the input unusable, when it was (then nothing ran, and `summary.stopReason`
  /// is `invalid-input`); left out otherwise.
  public var inputErrors: [InputError]? = nil
}
