#if compiler(>=6.3)
  import Testing

  /// The arguments of one case of a parameterized test, as a failure names them and
  /// `QUEUE_TESTING_ARGUMENTS` selects them: `value: 20`, or `x: 1, name: "a"` (each value as
  /// Swift Testing describes it, after its parameter's label).
  enum TestCaseArguments {
    /// The arguments of `testCase`; nil when the test is not parameterized, or when Swift Testing
    /// no longer shows a case's arguments as this reads them.
    static func text(of testCase: Test.Case?) -> String? {
      parts(of: testCase)?.map { ($0.label.map { "\($0): " } ?? "") + $0.value }.joined(separator: ", ")
    }

    /// The arguments as Swift Testing's event stream names a case (`20`, or `1, "a"`): the
    /// values alone. Nil as for ``text(of:)``.
    static func displayName(of testCase: Test.Case?) -> String? {
      parts(of: testCase)?.map(\.value).joined(separator: ", ")
    }

    /// Each argument's parameter label and value, as Swift Testing describes the value.
    private static func parts(of testCase: Test.Case?) -> [(label: String?, value: String)]? {
      guard let testCase, testCase.isParameterized else { return nil }
      // Swift Testing keeps a case's arguments to itself (its `Test.Case` shows only whether it
      // is parameterized); its mirror shows them: `_kind`, case `parameterized`, `arguments`.
      func child(_ value: Any, _ label: String) -> Any? {
        Mirror(reflecting: value).children.first { $0.label == label }?.value
      }
      guard let kind = child(testCase, "_kind"), let parameterized = child(kind, "parameterized"),
        let arguments = child(parameterized, "arguments")
      else { return nil }
      var parts: [(label: String?, value: String)] = []
      for argument in Mirror(reflecting: arguments).children.map(\.value) {
        guard let value = child(argument, "value") else { return nil }
        let label = child(argument, "parameter").flatMap { child($0, "firstName") } as? String
        parts.append((label, String(describingForTest: value)))
      }
      return parts.isEmpty ? nil : parts
    }

    /// What a child process adds to each issue of a parameterized test's case, before the
    /// case's arguments, so that the parent records it on that case.
    static let issueTag = "QueueTesting case: "

    /// What a child process writes to standard error as a case of a parameterized test starts,
    /// before the test's identifier, a tab and the case's arguments: the last such line says
    /// which case a crash or a stuck job belongs to.
    static let runningMarker = "QueueTesting running case: "
  }
#endif
