#if compiler(>=6.3) && canImport(XCTest)
  import XCTest

  extension XCTestCase {
    /// Runs `body` under controlled scheduling from an XCTest test: once per schedule of
    /// `scheduling`, stopping at the first schedule that throws, records an XCTest failure or
    /// does not complete. That failure is reported with `XCTFail` at the caller's line, with the
    /// schedule, a replay line and the last 40 events of the trace; a body that cannot finish
    /// (a deadlock) is abandoned, never waited for.
    ///
    /// ```swift
    /// func testOrder() async {
    ///   await runControlledSchedules(ControlledScheduling(.random(50))) {
    ///     let queue = FIFOQueue()
    ///     let recorder = OrderRecorder()
    ///     queue.enqueue { recorder.mark("first") }
    ///     queue.enqueue { recorder.mark("second") }
    ///     await queue.enqueueAndWait {}
    ///     expectOrder(recorder, ["first", "second"])
    ///   }
    /// }
    /// ```
    /// On a system older than controlled runs need (macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4,
    /// visionOS 26.4) the test fails with ``ControlledScheduling/unsupportedSystemMessage(testName:)``
    /// and `body` is not run.
    /// - Returns: The report (schedules run, the failure if any).
    @discardableResult
    public func runControlledSchedules(
      _ scheduling: ControlledScheduling = ControlledScheduling(),
      file: StaticString = #filePath, line: UInt = #line,
      _ body: @escaping @Sendable () async throws -> Void
    ) async -> ControlledScheduling.Report {
      guard !ControlledScheduling.simulatesUnsupportedSystem,
        #available(ExecutorHooks 1.0, *)
      else {
        XCTFail(ControlledScheduling.unsupportedSystemMessage(testName: name), file: file, line: line)
        return ControlledScheduling.Report(schedulesRun: 0, exhausted: nil, failure: nil)
      }
      let resolved: ControlledScheduling
      do {
        resolved = try scheduling.resolved(environment: ProcessInfo.processInfo.environment)
      } catch {
        XCTFail(error.message, file: file, line: line)
        return ControlledScheduling.Report(schedulesRun: 0, exhausted: nil, failure: nil)
      }
      let report = resolved.runSeries(body, failureCount: { self.testRun?.totalFailureCount ?? 0 })
      if let failure = report.failure {
        // XCTest on Linux has no attachments: the end of the trace goes into the message.
        let stem = ControlledSchedulingTrait.attachmentStem(testName: name, scheduleNumber: failure.scheduleNumber)
        let scheduleFile = ScheduleFile.saveIfLong(failure, stem: stem)
        XCTFail(
          failure.message(testID: xcTestID, scheduleFile: scheduleFile) + "\n" + failure.traceText(limit: 40),
          file: file, line: line)
      }
      return report
    }

    /// This test as `swift test --filter` names an XCTest test: `Module.Class/method`. (`name` is
    /// `-[Module.Class method]` on Apple platforms and `Class.method` elsewhere.)
    var xcTestID: String {
      let method = name.split(whereSeparator: { " .".contains($0) }).last.map { $0.filter { $0 != "]" } } ?? name
      return "\(String(reflecting: type(of: self)))/\(method)"
    }
  }
#endif
