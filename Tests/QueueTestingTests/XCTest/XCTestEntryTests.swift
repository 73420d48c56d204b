#if compiler(>=6.3)
  import AsyncQueue
  @testable import QueueTesting
  @testable import QueueTestingEngine
  import QueueWorkloads
  import XCTest

  /// The XCTest entry point and the routing of QueueTesting's failures to `XCTFail`. Failures
  /// the tests expect are captured by overriding `recordFailure` (XCTest on Linux has no
  /// `XCTExpectFailure`), so they can be checked instead of failing the test.
  final class XCTestEntryTests: XCTestCase {
    private struct Failure {
      var description: String
      var file: String
      var line: Int
    }

    private var captured: [Failure]?

    #if canImport(Darwin)
      // Apple's XCTest records every failure as an XCTIssue; `recordFailure` is only its old name.
      override func record(_ issue: XCTIssue) {
        if captured != nil {
          let location = issue.sourceCodeContext.location
          captured?.append(
            Failure(
              description: issue.compactDescription, file: location?.fileURL.path ?? "",
              line: location?.lineNumber ?? 0))
        } else {
          super.record(issue)
        }
      }
    #else
      override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
      ) {
        if captured != nil {
          captured?.append(Failure(description: description, file: filePath, line: lineNumber))
        } else {
          super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
      }
    #endif

    /// Runs `body` with failures captured; returns them.
    private func capturingFailures(_ body: () async -> Void) async -> [Failure] {
      captured = []
      await body()
      defer { captured = nil }
      return captured ?? []
    }

    func testQueueBodyPassesEverySchedule() async {
      let report = await runControlledSchedules(ControlledScheduling(.random(10, seed: 1))) {
        XCTAssertTrue(ControlledExecutor.isControlling)
        if await queueOrderViolations() > 0 { throw OutOfOrder() }
      }
      XCTAssertEqual(report.schedulesRun, 10)
      XCTAssertNil(report.failure)
    }

    func testFailingScheduleFailsAtTheCallersLine() async {
      var line = 0
      let failures = await capturingFailures {
        line = #line + 1
        await runControlledSchedules(ControlledScheduling(.random(20, seed: 1))) {
          if await naiveTaskPerCallViolations() > 0 { throw OutOfOrder() }
        }
      }
      XCTAssertEqual(failures.count, 1)
      XCTAssertEqual(failures.first?.line, line)
      XCTAssertEqual(failures.first?.file, #filePath)
      XCTAssertTrue(failures.first?.description.contains("Controlled schedule 1 failed") == true)
      XCTAssertTrue(failures.first?.description.contains("the body threw OutOfOrder()") == true)
      XCTAssertTrue(failures.first?.description.contains("QUEUE_TESTING_SCHEDULE='s1:") == true)
      // The replay line names this test as `swift test --filter` names XCTest tests.
      let replay =
        #"swift test --filter '^QueueTestingTests\.XCTestEntryTests\/testFailingScheduleFailsAtTheCallersLine$'"#
      XCTAssertTrue(failures.first?.description.contains(replay) == true, failures.first?.description ?? "")
    }

    /// On a system older than controlled runs need, the test fails at the caller's line, naming
    /// the versions, and the body does not run.
    func testOlderSystemFailsWithoutRunningTheBody() async {
      let ran = LockedState(false)
      var line = 0
      var report: ControlledScheduling.Report?
      let failures = await capturingFailures {
        await ControlledScheduling.$simulatesUnsupportedSystem.withValue(true) {
          line = #line + 1
          report = await runControlledSchedules { ran.withLock { $0 = true } }
        }
      }
      XCTAssertFalse(ran.withLock { $0 })
      XCTAssertEqual(report?.schedulesRun, 0)
      XCTAssertEqual(failures.count, 1)
      XCTAssertEqual(failures.first?.line, line)
      XCTAssertTrue(
        failures.first?.description.contains(
          "testOlderSystemFailsWithoutRunningTheBody did not run: controlled scheduling needs macOS 26.4") == true,
        failures.first?.description ?? "no failure")
    }

    func testExpectOrderRoutesToXCTFailAtTheCallersLine() async {
      let recorder = OrderRecorder()
      recorder.mark("b")
      recorder.mark("a")
      var line = 0
      let failures = await capturingFailures {
        line = #line + 1
        expectOrder(recorder, ["a", "b"])
      }
      XCTAssertEqual(failures.count, 1)
      XCTAssertEqual(failures.first?.line, line)
      XCTAssertEqual(failures.first?.file, #filePath)
      XCTAssertTrue(failures.first?.description.contains(#"expected ["a", "b"], observed ["b", "a"]"#) == true)
    }

    /// A deadlocked body is reported and abandoned: the test goes on.
    func testDeadlockIsReportedAndTheBodyAbandoned() async {
      var report: ControlledScheduling.Report?
      let failures = await capturingFailures {
        report = await runControlledSchedules(ControlledScheduling(.random(3))) {
          await withNamedContinuation("reply", park)
        }
      }
      XCTAssertEqual(report?.failure?.leftBodyUnfinished, true)
      XCTAssertEqual(failures.count, 1)
      XCTAssertTrue(failures.first?.description.contains("the run deadlocked") == true)
      XCTAssertTrue(failures.first?.description.contains("waits at continuation 'reply'") == true)
    }

    /// A linearizability check from XCTest: the failure at the caller's line, with its table and
    /// rerun line; the fixed twin passes without a failure.
    func testLinearizabilityFailureRoutesToXCTFail() async {
      guard #available(ExecutorHooks 1.0, *) else { return }
      let line = #line + 2
      let failures = await capturingFailures {
        await assertLinearizable(
          LinearizabilityCheck<CounterModel, ReadAwaitWriteCounter>.counter { ReadAwaitWriteCounter() })
      }
      XCTAssertEqual(failures.count, 1)
      XCTAssertEqual(failures.first?.line, line)
      XCTAssertTrue(failures.first?.description.contains("increment() → 1 | increment() → 1") == true)
      XCTAssertTrue(failures.first?.description.contains("Rerun it alone: QUEUE_TESTING_SCENARIO=") == true)
      let passing = await capturingFailures {
        await assertLinearizable(
          LinearizabilityCheck<CounterModel, WriteThenAwaitCounter>.counter { WriteThenAwaitCounter() })
      }
      XCTAssertTrue(passing.isEmpty)
    }
  }
#endif
