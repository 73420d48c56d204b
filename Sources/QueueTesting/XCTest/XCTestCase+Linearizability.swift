#if compiler(>=6.3) && canImport(XCTest)
  import XCTest

  extension XCTestCase {
    /// Runs `check` from an XCTest test and reports its failure with `XCTFail` at the caller's
    /// line: the failing scenario made small, as a table with each operation's result, where the
    /// model first disagrees, the interleaving, the line that reruns it alone, and the last 40
    /// events of the failing schedule's trace (XCTest on Linux has no attachments).
    ///
    /// ```swift
    /// final class HitCounterTests: XCTestCase {
    ///   func testCounterIsLinearizable() async {
    ///     await assertLinearizable(
    ///       LinearizabilityCheck(
    ///         model: CounterModel(),
    ///         operations: { random in Bool.random(using: &random) ? .increment : .get },
    ///         make: { AtomicHitCounter() },
    ///         perform: { counter, operation in
    ///           operation == .increment ? await counter.increment() : await counter.get()
    ///         }))
    ///   }
    /// }
    /// ```
    /// `scenario`, when given, is run instead of the check's random ones.
    /// On a system older than controlled runs need, the test fails with
    /// ``ControlledScheduling/unsupportedSystemMessage(testName:)`` and nothing runs.
    /// - Returns: The report (nil on such a system).
    @discardableResult
    public func assertLinearizable<Model: SequentialModel, Subject: Sendable>(
      _ check: LinearizabilityCheck<Model, Subject>, scenario: OperationScenario<Model.Operation>? = nil,
      file: StaticString = #filePath, line: UInt = #line
    ) async -> LinearizabilityReport<Model.Operation, Model.Result>? {
      guard !ControlledScheduling.simulatesUnsupportedSystem, #available(ExecutorHooks 1.0, *) else {
        XCTFail(ControlledScheduling.unsupportedSystemMessage(testName: name), file: file, line: line)
        return nil
      }
      let report = if let scenario { await check.run(scenario) } else { await check.run() }
      if let error = report.configurationError {
        XCTFail(error, file: file, line: line)
      }
      if let failure = report.failure {
        XCTFail(
          failure.message(testID: xcTestID) + (failure.schedule.map { "\n" + $0.traceText(limit: 40) } ?? ""),
          file: file, line: line)
      }
      return report
    }
  }
#endif
