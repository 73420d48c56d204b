/// The choices a controlled run made, which replay it exactly.
///
/// Only steps with more than one runnable job are recorded (a forced step is not a choice), so a
/// schedule stays short. The text form is versioned and fits a failure message:
/// `s1:` followed by the choices in base 36, separated by `.`, e.g. `s1:0.2.1.0.a`.
public struct Schedule: Equatable, Sendable, CustomStringConvertible {
  /// The index chosen at each step that had more than one runnable job, in order.
  public var choices: [Int]

  /// Creates a schedule from its choices.
  public init(choices: [Int]) {
    self.choices = choices
  }

  /// The text form's version prefix.
  public static let versionPrefix = "s1:"

  /// The compact text form, e.g. `s1:0.2.1`.
  public var description: String {
    Self.versionPrefix + choices.map { String($0, radix: 36) }.joined(separator: ".")
  }

  /// Parses the text form; throws a ``ScheduleParseError`` that says what was expected.
  public init(parsing text: String) throws(ScheduleParseError) {
    guard text.hasPrefix(Self.versionPrefix) else {
      throw ScheduleParseError(
        message: "expected a schedule starting with '\(Self.versionPrefix)', found '\(text.prefix(12))'")
    }
    let body = text.dropFirst(Self.versionPrefix.count)
    if body.isEmpty {
      self.init(choices: [])
      return
    }
    var choices: [Int] = []
    for (index, part) in body.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
      guard let value = Int(part, radix: 36), value >= 0 else {
        throw ScheduleParseError(message: "choice \(index + 1): expected a base-36 number, found '\(part)'")
      }
      choices.append(value)
    }
    self.init(choices: choices)
  }
}

/// Why a schedule's text form could not be read.
public struct ScheduleParseError: Error, Equatable, CustomStringConvertible {
  /// What was expected and what was found.
  public let message: String

  /// The message.
  public var description: String { message }
}
