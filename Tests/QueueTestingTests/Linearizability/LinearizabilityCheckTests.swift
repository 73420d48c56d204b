#if compiler(>=6.3)
  import Foundation
  import Testing

  @testable import QueueTesting

  @Suite("Checking a user's type against a sequential model", .timeLimit(.minutes(5)), .hangGuard)
  struct LinearizabilityCheckTests {
    @available(ExecutorHooks 1.0, *)
    @Test func theReadAwaitWriteCounterIsFoundAndMadeSmall() async throws {
      let report = await LinearizabilityCheck<CounterModel, ReadAwaitWriteCounter>.counter { ReadAwaitWriteCounter() }
        .run(environment: [:])
      let failure = try #require(report.failure, "\(report.summary)")
      print(failure.message(testID: "M.t()"))
      #expect(failure.kind == .notLinearizable)
      #expect(failure.scenario.operationCount <= 4, "\(failure.scenario)")
    }

    @available(ExecutorHooks 1.0, *)
    @Test func itsFixedTwinPasses() async {
      let report = await LinearizabilityCheck<CounterModel, WriteThenAwaitCounter>.counter { WriteThenAwaitCounter() }
        .run(environment: [:])
      #expect(report.passed, "\(report.failure?.message() ?? report.summary)")
      print(report.summary)
    }
  }
#endif
