import QueueScenarios

/// Reads a command's arguments: positional words and `--option value` pairs, each option known.
struct ArgumentReader {
  /// A usage mistake, reported with exit status 2.
  struct UsageError: Error {
    let message: String
  }

  private(set) var positionals: [String] = []
  private var values: [String: String] = [:]
  private(set) var flags: Set<String> = []

  /// Splits `arguments`; `options` take a value, `flagNames` do not.
  init(_ arguments: [String], options: Set<String>, flagNames: Set<String> = []) throws(UsageError) {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument.hasPrefix("--") {
        if flagNames.contains(argument) {
          flags.insert(argument)
        } else if options.contains(argument) {
          guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
            throw UsageError(message: "option '\(argument)' needs a value")
          }
          values[argument] = arguments[index + 1]
          index += 1
        } else {
          let names = options.union(flagNames)
          // `--option=value` is a common habit: say how this command line takes it.
          let (name, value) = argument.split(separator: "=", maxSplits: 1).map(String.init).splitFirst
          if let value, names.contains(name) {
            throw UsageError(message: "write '\(name) \(value)' (a space, not '=')")
          }
          let known = names.sorted().joined(separator: ", ")
          throw UsageError(
            message: "unknown option '\(argument)'\(NearestWord.suggestion(for: name, among: names)) (known: \(known))")
        }
      } else {
        positionals.append(argument)
      }
      index += 1
    }
  }

  func string(_ option: String) -> String? { values[option] }

  func integer(_ option: String, default value: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
    guard let text = values[option] else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        message:
          "option '\(option)' expects a whole number in \(range.lowerBound)...\(range.upperBound), found '\(text)'")
    }
    return number
  }

  func seed(_ option: String) throws(UsageError) -> UInt64 {
    guard let text = values[option] else { return 0 }
    guard let number = UInt64(text) else {
      throw UsageError(message: "option '\(option)' expects a non-negative whole number, found '\(text)'")
    }
    return number
  }

  func choice<Choice: RawRepresentable<String> & CaseIterable>(_ option: String, default value: Choice)
    throws(UsageError) -> Choice
  {
    guard let text = values[option] else { return value }
    guard let choice = Choice(rawValue: text) else {
      let known = Choice.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError(message: "option '\(option)' expects one of \(known), found '\(text)'")
    }
    return choice
  }
}

extension Array where Element == String {
  /// The first element, and the second if there is one.
  fileprivate var splitFirst: (String, String?) {
    (self.first ?? "", count > 1 ? self[1] : nil)
  }
}
