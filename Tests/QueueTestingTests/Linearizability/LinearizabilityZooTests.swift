#if compiler(>=6.3)
  import Foundation
  import Testing

  @testable import QueueTesting

  /// One buggy type of the kind users write, and its fixed twin, each as a check to run.
  struct ZooEntry: Sendable, CustomStringConvertible {
    struct Outcome: Sendable {
      var failed: Bool
      var operations: Int
      var message: String
      var schedules: Int
    }

    let description: String
    let buggy: @Sendable (UInt64) async -> Outcome
    let fixed: @Sendable (UInt64) async -> Outcome

    @available(ExecutorHooks 1.0, *)
    static func run<Model, Subject>(_ check: LinearizabilityCheck<Model, Subject>, seed: UInt64) async -> Outcome {
      var check = check
      check.seed = seed
      let report = await check.run(environment: [:])
      return Outcome(
        failed: !report.passed, operations: report.failure?.scenario.operationCount ?? 0,
        message: report.failure?.message() ?? report.configurationError ?? report.summary,
        schedules: report.schedulesRun)
    }

    @available(ExecutorHooks 1.0, *)
    static var all: [ZooEntry] {
      [
        ZooEntry(
          description: "an actor counter that reads, awaits, then writes",
          buggy: { await run(.counter { ReadAwaitWriteCounter() }, seed: $0) },
          fixed: { await run(.counter { WriteThenAwaitCounter() }, seed: $0) }),
        ZooEntry(
          description: "an actor cache that fetches twice for one key",
          buggy: { await run(.cache { CheckThenFetchCache() }, seed: $0) },
          fixed: { await run(.cache { InFlightCache() }, seed: $0) }),
        ZooEntry(
          description: "a queue that loses a wake-up",
          buggy: { await run(.waitingQueue(losesWakeUps: true), seed: $0) },
          fixed: { await run(.waitingQueue(losesWakeUps: false), seed: $0) }),
        ZooEntry(
          description: "a semaphore that loses a permit when a waiter is cancelled",
          buggy: { await run(.semaphore(losesPermits: true), seed: $0) },
          fixed: { await run(.semaphore(losesPermits: false), seed: $0) }),
        ZooEntry(
          description: "a count that reads two actors without one order",
          buggy: { await run(.transfer { TwoShardLedger() }, seed: $0) },
          fixed: { await run(.transfer { OneActorLedger() }, seed: $0) }),
        ZooEntry(
          description: "a bounded buffer whose put drops an element when full and cancelled",
          buggy: { await run(.buffer(dropsOnCancel: true), seed: $0) },
          fixed: { await run(.buffer(dropsOnCancel: false), seed: $0) }),
        ZooEntry(
          description: "a single-flight cache that hands out a stale value after invalidation",
          buggy: { await run(.versionedValue { StaleSingleFlight() }, seed: $0) },
          fixed: { await run(.versionedValue { FreshSingleFlight() }, seed: $0) }),
        ZooEntry(
          description: "a two-field state updated around an await",
          buggy: { await run(.account { TornAccount() }, seed: $0) },
          fixed: { await run(.account { WholeAccount() }, seed: $0) }),
      ]
    }
  }

  /// Each buggy type is found by the default check, made as small as 4 operations at most, and
  /// its fixed twin passes. The suite runs seeds 1 to 3 of each; `.ci/run zoo` sets
  /// `QUEUE_TESTING_ZOO_SEEDS=20` for the full sweep of 20 seeds.
  @Suite("The zoo: buggy types users write, found by the default budget", .timeLimit(.minutes(5)), .hangGuard)
  struct LinearizabilityZooTests {
    static var seeds: ClosedRange<UInt64> {
      let count = ProcessInfo.processInfo.environment["QUEUE_TESTING_ZOO_SEEDS"].flatMap(UInt64.init) ?? 3
      return 1...max(count, 1)
    }

    @available(ExecutorHooks 1.0, *)
    @Test(arguments: ZooEntry.all)
    func eachBugIsFoundSmallAndItsTwinPasses(_ entry: ZooEntry) async {
      var found = 0
      for seed in Self.seeds {
        let buggy = await entry.buggy(seed)
        guard buggy.failed else {
          Issue.record("\(entry): not found with seed \(seed): \(buggy.message)")
          continue
        }
        #expect(buggy.operations <= 4, "\(entry), seed \(seed): \(buggy.message)")
        found += 1
      }
      #expect(found == Self.seeds.count)
      let fixed = await entry.fixed(1)
      #expect(!fixed.failed, "\(entry)'s fixed twin failed: \(fixed.message)")
    }
  }
#endif
