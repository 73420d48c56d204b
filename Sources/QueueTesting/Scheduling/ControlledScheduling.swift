#if compiler(>=6.3)
  import AsyncQueue
  import Foundation
  import Testing

  /// Runs a test body under a series of controlled schedules and stops at the first one that
  /// fails: what the `.controlledScheduling` trait and the XCTest entry point do for each test.
  ///
  /// A schedule fails when the body throws, when a test failure is recorded while it runs (an
  /// `#expect`, an `XCTAssert`, one of QueueTesting's ordering expectations), or when its run
  /// does not complete (a deadlock, the step budget, a declared outside wake-up that never came).
  /// The ``Failure`` says which schedule it was and how to replay it alone.
  ///
  /// Two environment variables adjust a run without editing the test (see
  /// ``resolved(environment:)``): `QUEUE_TESTING_SCHEDULE` replays one schedule (the text a
  /// failure prints) and `QUEUE_TESTING_SEED` replaces the seed of a random or PCT series.
  public struct ControlledScheduling: Equatable, Sendable {
    /// The schedules to run.
    public var series: ScheduleSeries
    /// The most jobs one schedule may run; past it the schedule fails as a livelock.
    public var stepBudget: Int
    /// The tasks a schedule may cancel between jobs (nil: none); see ``CancellationTargets``.
    /// Random, PCT and portfolio series choose when; a replay repeats the schedule's own.
    public var cancelling: CancellationTargets?
    /// Stops the series, passing, once this many schedules in a row gave no interleaving the
    /// series had not seen (nil, the default: run every schedule). A body with few interleavings
    /// then stops early instead of repeating them; ``SeriesReport/stoppedUnchanged`` says it did.
    public var stopAfterSchedulesWithoutNewInterleaving: Int?
    /// When the series stops before its count of schedules, passing: the default series
    /// (a configuration made with no series) runs under ``ScheduleBudget/default``, so a long body
    /// gets fewer schedules, a body with no scheduling choice gets one, and a series stops once new
    /// schedules stop giving new interleavings; the same seed still runs the same schedules. Nil:
    /// every schedule of the series runs (a series given explicitly, such as `.portfolio(1000)`,
    /// has none unless given one). ``budgetVariable`` scales or replaces it.
    public var budget: ScheduleBudget?
    /// How long a schedule waits, in real time, for work outside the harness (a completion
    /// handler on a Dispatch queue, a job on a custom executor) when nothing it controls can
    /// run; see ``ControlledExecutor/defaultOutsideWorkTimeout``. Zero: never wait, and report a
    /// deadlock at once (for code with no work outside the harness).
    public var outsideWorkTimeout: Duration

    /// How a failing schedule is reduced to fewer preemptions before it is reported (see
    /// ``ScheduleReducer``); nil: not reduced. Under Swift Testing only: the issues a candidate
    /// run records are compared with the failing schedule's and not reported, which XCTest does not
    /// allow. A replay (``scheduleVariable``) is not reduced either: it reports the schedule given.
    public var reducing: ScheduleReducer?

    /// How long one job of a schedule may run before the schedule fails as stuck (see
    /// ``StuckJob``): the run returns, naming the job and the blocking call its thread is in,
    /// instead of hanging. Nil: no limit (the calling thread drives each run). Under the
    /// `.controlledScheduling` trait, the test's `.timeLimit` or 60 seconds.
    public var jobTimeLimit: Duration?

    /// How long one job of a schedule may run before the run leaves one-job-at-a-time: the job
    /// goes on on its own thread while the harness goes on choosing the run's other jobs beside it
    /// (see ``RunResult/leftOneJobAtATimeAtStep``): correct code that runs a job until another task
    /// acts (a loop over a synchronous sequence until its task is cancelled, a wait on a
    /// semaphore another task signals) then passes, as on real threads; the schedule replays
    /// exactly only up to that step. Nil: the run stays one-job-at-a-time, and such a job is
    /// reported stuck after ``jobTimeLimit``. By default ``ControlledExecutor/defaultJobSlice``;
    /// ``jobSliceVariable`` overrides it.
    public var jobSlice: Duration?

    /// What of the runtime the series' runs model: ``RuntimeModel/faithful`` but in the
    /// package's mutation checks.
    package var runtimeModel = RuntimeModel.faithful

    /// Whether the trait says, for a series that passed, how far it went and why it stopped (see
    /// ``summaryVariable``).
    var summarizesPassingSeries = false

    /// The file a replay's schedule was read from (see ``scheduleFileVariable``), so that its
    /// lines name the file rather than spell out a long schedule.
    var replayedFile: String?

    /// The environment variable that replays one schedule, in ``Schedule``'s text form.
    public static let scheduleVariable = "QUEUE_TESTING_SCHEDULE"
    /// The environment variable that replays one schedule saved in a file (the path a failure
    /// prints when its schedule is too long to spell out on a command line).
    public static let scheduleFileVariable = "QUEUE_TESTING_SCHEDULE_FILE"
    /// The environment variable that sets ``jobSlice``, in seconds (a decimal number such as
    /// `0.2`), or `off` to keep runs one-job-at-a-time.
    public static let jobSliceVariable = "QUEUE_TESTING_JOB_SLICE"
    /// The environment variable that replaces the seed of a random or PCT series.
    public static let seedVariable = "QUEUE_TESTING_SEED"
    /// The environment variable that changes the ``budget`` of a series that has one (the
    /// default): `10x` multiplies it and the series' count of schedules by 10 (a nightly run),
    /// `off` runs every schedule; `30s` gives any series a wall-clock budget of 30 seconds, which
    /// does not replay as a series (which schedules ran depends on the machine).
    public static let budgetVariable = "QUEUE_TESTING_BUDGET"
    /// The environment variable that, set to `on` (or `1`), makes the trait say for each test
    /// whose series passed how far the series went and why it stopped, as a warning: "passed
    /// under portfolio(100, seed: …): stopped after 12 schedule(s) (…): 12 schedules in a row
    /// found no new interleaving". `off`, `0` or empty says nothing (the default).
    public static let summaryVariable = "QUEUE_TESTING_SUMMARY"
    /// The environment variable that picks one case of a parameterized test by its arguments, in
    /// the form a failure's replay line gives them (`value: 20`); the test's other cases are
    /// cancelled, not run.
    public static let argumentsVariable = "QUEUE_TESTING_ARGUMENTS"
    /// The environment variable that says when the trait runs a test's schedules each in a fresh
    /// process: `auto` (the default: when a schedule after the first fails, and passes alone in a
    /// fresh process, the test keeps state between runs, and its series runs again with a fresh
    /// process per schedule), `always`, or `never`. Random, PCT and portfolio series only.
    public static let freshProcessVariable = "QUEUE_TESTING_FRESH_PROCESS"
    /// Set by the trait in a child process that runs one schedule of a random, PCT or portfolio
    /// series alone: the schedule's index, from 0 (see `FreshProcessSeries`).
    static let scheduleIndexVariable = "QUEUE_TESTING_SCHEDULE_INDEX"

    /// Creates a configuration; by default up to 100 schedules of the portfolio series (random
    /// and PCT of depths 2 and 3 in turn) under ``ScheduleBudget/default``, with no cancellation
    /// choices. A series given explicitly runs every schedule, unless `budget` is given too.
    public init(
      _ series: ScheduleSeries? = nil, stepBudget: Int = ControlledExecutor.defaultStepBudget,
      cancelling: CancellationTargets? = nil,
      stopAfterSchedulesWithoutNewInterleaving: Int? = nil,
      outsideWorkTimeout: Duration = ControlledExecutor.defaultOutsideWorkTimeout,
      reducing: ScheduleReducer? = ScheduleReducer(),
      jobTimeLimit: Duration? = ControlledExecutor.defaultJobTimeLimit,
      jobSlice: Duration? = ControlledExecutor.defaultJobSlice,
      budget: ScheduleBudget? = nil
    ) {
      self.reducing = reducing
      self.jobTimeLimit = jobTimeLimit
      self.jobSlice = jobSlice
      self.series = series ?? .portfolio()
      self.budget = budget ?? (series == nil ? .default : nil)
      self.stepBudget = stepBudget
      self.cancelling = cancelling
      self.stopAfterSchedulesWithoutNewInterleaving = stopAfterSchedulesWithoutNewInterleaving
      self.outsideWorkTimeout = outsideWorkTimeout
    }

    /// What a value of ``budgetVariable`` asks for.
    enum BudgetSetting: Equatable {
      case off
      case factor(Int)
      case seconds(Double)

      /// `text` read; nil when it is empty (set but cleared, as unset).
      init?(_ text: String) throws(ControlledSchedulingError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.isEmpty { return nil }
        if trimmed == "off" {
          self = .off
        } else if trimmed.hasSuffix("x"), let factor = Int(trimmed.dropLast()), (1...1_000).contains(factor) {
          self = .factor(factor)
        } else if trimmed.hasSuffix("s"), let seconds = Double(trimmed.dropLast()), seconds > 0, seconds < 86_400 {
          self = .seconds(seconds)
        } else {
          throw ControlledSchedulingError(
            message:
              "\(ControlledScheduling.budgetVariable)=\(text): expected a factor such as 10x, a number of seconds such as 30s, or off"
          )
        }
      }
    }

    /// A value of ``seedVariable``, read.
    static func seed(_ text: String) throws(ControlledSchedulingError) -> UInt64 {
      guard let seed = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
        throw ControlledSchedulingError(
          message: "\(seedVariable)=\(text): expected a decimal number from 0 to \(UInt64.max)")
      }
      return seed
    }

    /// Applies a value of ``budgetVariable``.
    mutating func applyBudgetVariable(_ setting: BudgetSetting) {
      switch setting {
      case .off:
        budget = nil
      case .factor(let factor):
        guard let current = budget else { return }
        budget = current.scaled(by: factor)
        series.count = series.count.multipliedReportingOverflow(by: factor).overflow ? .max : series.count * factor
      case .seconds(let seconds):
        var timed = budget ?? ScheduleBudget(steps: .max, schedulesWithoutNewInterleaving: .max)
        timed.seconds = seconds
        budget = timed
      }
    }

    /// This configuration as `environment` adjusts it: ``scheduleVariable`` makes it a replay of
    /// that one schedule, and so does ``scheduleFileVariable`` with the schedule in a file (a
    /// failure prints that form when its schedule is long); ``seedVariable`` (a decimal `UInt64`)
    /// replaces the seed.
    /// - Throws: ``ControlledSchedulingError`` naming the variable and what was expected, or
    ///   saying that an exhaustive series cannot explore cancellation choices.
    public func resolved(environment: [String: String]) throws(ControlledSchedulingError) -> ControlledScheduling {
      if !series.kind.family.cancels, let cancelling {
        throw ControlledSchedulingError(
          message: """
            cancelling: \(cancelling) needs a random, PCT or portfolio series: an exhaustive search \
            does not explore cancellation choices, and would call a space exhausted that it was not
            """)
      }
      var resolved = self
      if let text = environment[Self.jobSliceVariable] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "off" {
          resolved.jobSlice = nil
        } else if let seconds = Double(trimmed), seconds > 0, seconds < 86_400 {
          resolved.jobSlice = .nanoseconds(Int64(seconds * 1e9))
        } else {
          throw ControlledSchedulingError(
            message: "\(Self.jobSliceVariable)=\(text): expected a number of seconds above 0 (such as 0.05), or off")
        }
      }
      if let text = environment[Self.budgetVariable], let setting = try BudgetSetting(text) {
        resolved.applyBudgetVariable(setting)
      }
      if let text = environment[Self.summaryVariable] {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "on", "1": resolved.summarizesPassingSeries = true
        case "off", "0", "": resolved.summarizesPassingSeries = false
        default:
          throw ControlledSchedulingError(message: "\(Self.summaryVariable)=\(text): expected on or off")
        }
      }
      if let text = environment[Self.seedVariable] {
        resolved.series.seed = try Self.seed(text)
      }
      if let path = environment[Self.scheduleFileVariable] {
        if environment[Self.scheduleVariable] != nil {
          throw ControlledSchedulingError(
            message: "\(Self.scheduleVariable) and \(Self.scheduleFileVariable) are both set: set one of them")
        }
        resolved.series = .replay(try ScheduleFile.read(path, variable: Self.scheduleFileVariable))
        resolved.replayedFile = path
      }
      if let text = environment[Self.scheduleIndexVariable] {
        guard resolved.series.isSeeded else {
          throw ControlledSchedulingError(
            message:
              "\(Self.scheduleIndexVariable) runs one schedule of a random, PCT or portfolio series alone, not of \(resolved.series)"
          )
        }
        guard let index = Int(text), index >= 0, index < resolved.series.count else {
          throw ControlledSchedulingError(
            message:
              "\(Self.scheduleIndexVariable)=\(text): expected a schedule index from 0 to \(resolved.series.count - 1)"
          )
        }
        resolved.series.onlyIndex = index
      }
      if let text = environment[Self.scheduleVariable] {
        do {
          resolved.series = .replay(try Schedule(parsing: text.trimmingCharacters(in: .whitespaces)))
        } catch {
          throw ControlledSchedulingError(message: "\(Self.scheduleVariable)=\(text): \(error.message)")
        }
      }
      return resolved
    }

    /// How to run this series up to a given schedule again, for the test `testID` (see
    /// ``replayCommand(testID:)``): the same seed replays a random, PCT or portfolio series
    /// schedule by schedule.
    func rerunLine(testID: String, arguments: String? = nil) -> String {
      let command = Self.replayCommand(testID: testID, arguments: arguments)
      switch series.kind {
      case .random, .pct, .portfolio:
        return "\(Self.seedVariable)=\(series.seed) \(command)"
      case .replay(let schedule):
        if let replayedFile { return "\(Self.scheduleFileVariable)='\(replayedFile)' \(command)" }
        return "\(Self.scheduleVariable)='\(schedule)' \(command)"
      case .exhaustive:
        return command
      }
    }

    /// The `swift test` command that runs the test `testID` and nothing else, for a shell.
    ///
    /// `testID` is the test's full identifier: `String(describing: Test.current!.id)` under
    /// Swift Testing, `Module.Class/method` under XCTest. `--filter` takes a regular expression
    /// that may match anywhere in an identifier, so the identifier is escaped and anchored:
    /// neither `nameFixed` nor a test of the same name in another suite runs beside it.
    public static func replayCommand(testID: String) -> String {
      replayCommand(testID: testID, arguments: nil)
    }

    /// The command that runs one case of a parameterized test (`arguments`: the case's
    /// arguments, as ``argumentsVariable`` takes them), or the whole test when nil.
    static func replayCommand(testID: String, arguments: String?) -> String {
      let pattern = "^" + NSRegularExpression.escapedPattern(for: testID) + "$"
      let selection = arguments.map { "\(argumentsVariable)=\(shellQuoted($0)) " } ?? ""
      return "\(selection)swift test --filter \(shellQuoted(pattern))"
    }

    /// `text` in single quotes, for a POSIX shell.
    static func shellQuoted(_ text: String) -> String {
      "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The failure a test under controlled scheduling gets on a system older than controlled runs
    /// need; its body is not run (running it uncontrolled would pass without exploring anything).
    public static func unsupportedSystemMessage(testName: String?) -> String {
      """
      \(testName ?? "This test") did not run: controlled scheduling needs macOS 26.4, iOS 26.4, \
      watchOS 26.4, tvOS 26.4 or visionOS 26.4 (the Swift 6.3 runtime's executor hooks), and this \
      system is older. The body was not run uncontrolled.
      """
    }

    /// Set by tests of the entry points to take the path an older system takes.
    @TaskLocal static var simulatesUnsupportedSystem = false

    /// What happened over the series (the engine's ``SeriesReport``).
    public typealias Report = SeriesReport<ScheduleProblem>

    /// The first schedule of a series that failed (the engine's ``ScheduleFailure``), and how:
    /// a ``ScheduleProblem``.
    public typealias Failure = ScheduleFailure<ScheduleProblem>
  }
#endif
