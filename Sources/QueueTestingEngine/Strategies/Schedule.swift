/// The choices a controlled run made, which replay it exactly.
///
/// Only steps with more than one runnable job are recorded (a forced step is not a choice), so a
/// schedule stays short. The text form is versioned and fits a failure message:
/// `s1:` followed by the choices in base 36, separated by `.`, e.g. `s1:0.2.1.0.a`. A run that
/// cancelled tasks as schedule choices (see ``CancellationTargets``) adds one `+c<task>@<step>`
/// per cancellation, in decimal: `s1:0.2.1+c3@17` cancelled task 3 after step 17. A run that
/// admitted work from outside the harness (see ``OutsideWork``) adds one `+o<task>@<step>` per
/// job it admitted: `s1:0.1+o2@5` admitted a job of task 2 from outside after step 5. A run that
/// set timers adds one `+t` part with each timer's delay in whole milliseconds, in the order they
/// were set (`n` for one that never fires): `s1:1.0+t30.30` set two 30 ms timers. Every part
/// after the choices is optional.
public struct Schedule: Equatable, Sendable, CustomStringConvertible {
  /// A job that came back from outside the harness, and when the run admitted it.
  public struct Admission: Equatable, Sendable {
    /// The run-local id of the job's task (see ``Trace``).
    public var task: Int
    /// How many jobs had run when it was admitted (0: before the first).
    public var step: Int

    /// Creates an admission of a job of `task` after `step` jobs.
    public init(task: Int, step: Int) {
      self.task = task
      self.step = step
    }
  }

  /// A task the run cancelled, and when.
  public struct Cancellation: Equatable, Sendable {
    /// The run-local id of the cancelled task (see ``Trace``).
    public var task: Int
    /// How many jobs had run when the task was cancelled (0: before the first).
    public var step: Int

    /// Creates a cancellation of `task` after `step` jobs.
    public init(task: Int, step: Int) {
      self.task = task
      self.step = step
    }
  }

  /// The index chosen at each step that had more than one runnable job, in order.
  public var choices: [Int]
  /// The tasks the run cancelled as schedule choices, in order (empty for most runs).
  public var cancellations: [Cancellation]
  /// The jobs the run admitted from outside the harness, in order (empty for most runs).
  public var admissions: [Admission]
  /// Each timer's delay as the run took it, in whole milliseconds, in the order the timers were
  /// set (nil: a timer that never fires). A replay uses these rather than measuring again: a
  /// sleep reaches the harness as an instant of the real clock, and its delay is recovered by
  /// measuring, which a stall of the measuring thread can shorten.
  public var timerDelays: [UInt64?]

  /// Creates a schedule from its choices, cancellations, admissions and timer delays.
  public init(
    choices: [Int], cancellations: [Cancellation] = [], admissions: [Admission] = [], timerDelays: [UInt64?] = []
  ) {
    self.choices = choices
    self.cancellations = cancellations
    self.admissions = admissions
    self.timerDelays = timerDelays
  }

  /// The text form's version prefix.
  public static let versionPrefix = "s1:"

  /// The compact text form, e.g. `s1:0.2.1`, `s1:0.2.1+c3@17` or `s1:0.1+o2@5`.
  public var description: String {
    Self.versionPrefix + choices.map { String($0, radix: 36) }.joined(separator: ".")
      + cancellations.map { "+c\($0.task)@\($0.step)" }.joined()
      + admissions.map { "+o\($0.task)@\($0.step)" }.joined()
      + (timerDelays.isEmpty ? "" : "+t" + timerDelays.map { $0.map(String.init) ?? "n" }.joined(separator: "."))
  }

  /// Parses the text form; throws a ``ScheduleParseError`` that says what was expected.
  public init(parsing text: String) throws(ScheduleParseError) {
    guard text.hasPrefix(Self.versionPrefix) else {
      throw ScheduleParseError(
        message: "expected a schedule starting with '\(Self.versionPrefix)', found '\(text.prefix(12))'")
    }
    let parts = text.dropFirst(Self.versionPrefix.count).split(separator: "+", omittingEmptySubsequences: false)
    let body = parts[0]
    var choices: [Int] = []
    if !body.isEmpty {
      for (index, part) in body.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
        guard let value = Int(part, radix: 36), value >= 0 else {
          throw ScheduleParseError(message: "choice \(index + 1): expected a base-36 number, found '\(part)'")
        }
        choices.append(value)
      }
    }
    var cancellations: [Cancellation] = []
    var admissions: [Admission] = []
    var timerDelays: [UInt64?] = []
    for (index, part) in parts.dropFirst().enumerated() {
      if part.first == "t" {
        for (timer, field) in part.dropFirst().split(separator: ".", omittingEmptySubsequences: false).enumerated() {
          guard field == "n" || UInt64(field) != nil else {
            throw ScheduleParseError(
              message: "timer \(timer + 1): expected a delay in whole milliseconds, or 'n' for never, found '\(field)'")
          }
          timerDelays.append(UInt64(field))
        }
        continue
      }
      let fields = part.dropFirst().split(separator: "@", omittingEmptySubsequences: false)
      guard part.first == "c" || part.first == "o", fields.count == 2, let task = Int(fields[0]), task > 0,
        let step = Int(fields[1]), step >= 0
      else {
        throw ScheduleParseError(
          message: "part \(index + 1) after the choices: expected 'c<task>@<step>' (a cancellation, e.g. 'c3@17'), "
            + "'o<task>@<step>' (work admitted from outside, e.g. 'o2@5') or 't<ms>.<ms>…' (timer delays), "
            + "in decimal, found '\(part)'")
      }
      if part.first == "c" {
        cancellations.append(Cancellation(task: task, step: step))
      } else {
        admissions.append(Admission(task: task, step: step))
      }
    }
    self.init(choices: choices, cancellations: cancellations, admissions: admissions, timerDelays: timerDelays)
  }
}

/// Why a schedule's text form could not be read.
public struct ScheduleParseError: Error, Equatable, CustomStringConvertible {
  /// What was expected and what was found.
  public let message: String

  /// The message.
  public var description: String { message }
}
