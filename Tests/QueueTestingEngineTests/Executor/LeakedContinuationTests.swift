#if compiler(>=6.3)
  import Foundation
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// A continuation dropped without a resume: the runtime says so, and the run, which would
  /// otherwise wait out its outside-work timeout (any thread might still resume a task), reports
  /// the deadlock at once, quoting the runtime.
  @Suite("Leaked continuations", .timeLimit(.minutes(5)), .hangGuard)
  struct LeakedContinuationTests {
    /// The body awaits a continuation it drops at once.
    static let leaks: @Sendable () async -> Void = {
      await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
    }

    @available(ExecutorHooks 1.0, *)
    @Test func aLeakedContinuationIsNamedWithoutWaitingOutTheTimeout() throws {
      let started = ContinuousClock.now
      let result = ControlledExecutor.runBlocking(seed: 1, outsideWorkTimeout: .seconds(10), Self.leaks)
      let took = started.duration(to: .now)
      guard case .deadlocked(let report) = result.outcome else {
        Issue.record("expected a deadlock, got \(result.outcome)")
        return
      }
      #expect(took < .seconds(1), "took \(took)")
      #expect(report.waitedForOutsideWork == nil)
      #expect(report.leakedContinuations.count == 1)
      #expect(report.leakedContinuations.first?.contains("SWIFT TASK CONTINUATION MISUSE") == true)
      #expect(report.leakedContinuations.first?.contains("leaked its continuation without resuming it") == true)
      #expect(report.description.contains("the runtime reported a continuation dropped without being resumed"))
      // The same schedule gives the same report.
      let again = ControlledExecutor.runBlocking(
        strategy: ReplayStrategy(result.schedule), outsideWorkTimeout: .seconds(10), Self.leaks)
      #expect(again.outcome == result.outcome)
    }

    /// The mutation check: without noting the runtime's message, the run waits out its timeout
    /// (here one second) and names no leak.
    @available(ExecutorHooks 1.0, *)
    @Test func withoutTheRuntimesMessageTheRunWaitsOutItsTimeout() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let started = ContinuousClock.now
        let result = ControlledExecutor.runBlocking(
          strategy: SeededRandomStrategy(seed: 1), outsideWorkTimeout: .seconds(1),
          model: .faithful { $0.watchesLeakedContinuations = false }, LeakedContinuationTests.leaks)
        guard case .deadlocked(let report) = result.outcome else { exit(1) }
        print(
          "waited \(report.waitedForOutsideWork.map { "\($0)" } ?? "nothing"), leaks \(report.leakedContinuations.count)"
        )
        print(started.duration(to: .now) >= .seconds(1) ? "slow" : "fast")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("waited 1.0 seconds, leaks 0"), "\(output)")
      #expect(output.contains("slow"), "\(output)")
    }
  }
#endif
