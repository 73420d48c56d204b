#if compiler(>=6.3)
  import Testing

  /// The arguments of one case of a parameterized test, as a failure names them and
  /// `QUEUE_TESTING_ARGUMENTS` selects them: `value: 20`, or `x: 1, name: "a"` (each value as
  /// Swift Testing describes it, after its parameter's label).
  enum TestCaseArguments {
    /// The arguments of `testCase`; nil when the test is not parameterized, or when Swift Testing
    /// no longer shows a case's arguments as this reads them.
    static func text(of testCase: Test.Case?) -> String? {
      guard let testCase, testCase.isParameterized else { return nil }
      // Swift Testing keeps a case's arguments to itself (its `Test.Case` shows only whether it
      // is parameterized); its mirror shows them: `_kind`, case `parameterized`, `arguments`.
      func child(_ value: Any, _ label: String) -> Any? {
        Mirror(reflecting: value).children.first { $0.label == label }?.value
      }
      guard let kind = child(testCase, "_kind"), let parameterized = child(kind, "parameterized"),
        let arguments = child(parameterized, "arguments")
      else { return nil }
      var parts: [String] = []
      for argument in Mirror(reflecting: arguments).children.map(\.value) {
        guard let value = child(argument, "value") else { return nil }
        let label = child(argument, "parameter").flatMap { child($0, "firstName") } as? String
        parts.append((label.map { "\($0): " } ?? "") + String(describingForTest: value))
      }
      return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// What a child process adds to each issue of a parameterized test's case, before the
    /// case's arguments, so that the parent records it on that case.
    static let issueTag = "QueueTesting case: "
  }
#endif
