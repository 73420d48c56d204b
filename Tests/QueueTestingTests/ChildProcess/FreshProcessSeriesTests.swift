#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import AsyncQueue
  import Foundation
  import Testing

  @testable import QueueTesting
  @testable import QueueTestingEngine
  import QueueWorkloads

  /// A failure after the first schedule that passes alone in a fresh process is the test keeping
  /// state between runs: the series runs again with a fresh process per schedule, and what that
  /// finds is what the test reports. A failure that fails alone too, or on the first schedule,
  /// stands as found.
  @Suite("Fresh processes tell state kept between runs from a bug", .timeLimit(.minutes(5)), .hangGuard)
  struct FreshProcessSeriesTests {
    typealias Outcome = ChildProcessIsolation.Outcome

    static func failure(onSchedule number: Int) -> Outcome {
      let text = """
        Expectation failed: !Service.started
        During controlled schedule \(number) (random, 5 schedules, seed 0).
        Explored: 2 distinct interleaving(s) in \(number) schedule(s)
        Schedule: s1:0.1
        Replay it alone: QUEUE_TESTING_SCHEDULE='s1:0.1' swift test --filter '^Suite\\.test\\(\\)$'
        """
      let issue = ChildProcessIsolation.ChildIssue(
        text: text, fileID: "Tests/Suite.swift", filePath: "/Tests/Suite.swift", line: 9, column: 5)
      return Outcome(status: 0, endedBySignal: false, issues: [issue], standardError: "")
    }

    static let pass = Outcome(status: 0, endedBySignal: false, issues: [], standardError: "")

    /// The environments the fake spawn was called with, in order.
    struct Spawns {
      private let calls = LockedState<[[String: String]]>([])
      func append(_ environment: [String: String]) { calls.withLock { $0.append(environment) } }
      var environments: [[String: String]] { calls.withLock { $0 } }
    }

    @Test func aFailureAfterTheFirstScheduleThatPassesAloneRunsEachScheduleFresh() {
      let spawns = Spawns()
      let (outcome, note) = FreshProcessSeries.settle(
        Self.failure(onSchedule: 2), series: .random(5), mode: .auto, testName: "test()"
      ) { environment in
        spawns.append(environment)
        return Self.pass
      }
      #expect(FreshProcessSeries.passed(outcome))
      #expect(spawns.environments.first == [ControlledScheduling.scheduleVariable: "s1:0.1"])
      #expect(
        spawns.environments.dropFirst().map { $0[FreshProcessSeries.scheduleIndexVariable] } == [
          "0", "1", "2", "3", "4",
        ])
      #expect(note?.contains("test() keeps state between runs: controlled schedule 2 failed") == true, "\(note ?? "")")
      #expect(note?.contains("all 5 schedules pass") == true, "\(note ?? "")")
    }

    @Test func aBugFoundInAFreshProcessIsTheFailure() {
      let (outcome, note) = FreshProcessSeries.settle(
        Self.failure(onSchedule: 2), series: .random(5), mode: .auto, testName: "test()"
      ) { environment in
        environment[FreshProcessSeries.scheduleIndexVariable] == "3" ? Self.failure(onSchedule: 4) : Self.pass
      }
      #expect(!FreshProcessSeries.passed(outcome))
      #expect(FreshProcessSeries.failingScheduleNumber(in: outcome.issues) == 4)
      #expect(note?.contains("schedule 4 fails on its own") == true, "\(note ?? "")")
    }

    @Test func aFailureThatFailsAloneToo() {
      let spawns = Spawns()
      let original = Self.failure(onSchedule: 3)
      let (outcome, note) = FreshProcessSeries.settle(original, series: .pct(5), mode: .auto, testName: "test()") {
        environment in
        spawns.append(environment)
        return Self.failure(onSchedule: 1)
      }
      #expect(outcome == original)
      #expect(note == nil)
      #expect(spawns.environments.count == 1)
    }

    @Test(arguments: [
      (ScheduleSeries.random(5), FreshProcessSeries.Mode.auto, 1),
      (.exhaustive(delayBound: 2, budget: 5), .auto, 2),
      (.random(5), .never, 2),
    ])
    func failuresThatStandWithoutASpawn(series: ScheduleSeries, mode: FreshProcessSeries.Mode, schedule: Int) {
      let original = Self.failure(onSchedule: schedule)
      let (outcome, note) = FreshProcessSeries.settle(original, series: series, mode: mode, testName: "test()") { _ in
        Issue.record("no fresh process expected")
        return Self.pass
      }
      #expect(outcome == original)
      #expect(note == nil)
    }

    @Test func alwaysRunsEachScheduleFreshEvenWhenTheSeriesPassed() {
      let spawns = Spawns()
      let (outcome, note) = FreshProcessSeries.settle(Self.pass, series: .portfolio(3), mode: .always, testName: "t") {
        environment in
        spawns.append(environment)
        return Self.pass
      }
      #expect(FreshProcessSeries.passed(outcome))
      #expect(spawns.environments.count == 3)
      #expect(note?.hasPrefix("With a fresh process per schedule") == true)
    }

    /// A fresh process per schedule spends the series' budget as one process does, from what each
    /// child says its schedule spent: a body with no choice runs once, one whose schedules stop
    /// finding new interleavings stops after 12 such; a child that says nothing spends nothing.
    @Test func freshProcessesSpendTheSeriesBudget() {
      func run(_ spend: (Int) -> RunSpend?, budget: ScheduleBudget? = .default) -> (spawns: Int, note: String?) {
        let spawns = Spawns()
        let (outcome, note) = FreshProcessSeries.settle(
          Self.pass, series: .portfolio(40), budget: budget, mode: .always, testName: "t"
        ) { environment in
          spawns.append(environment)
          var outcome = Self.pass
          outcome.runSpend = spend(spawns.environments.count)
          return outcome
        }
        #expect(FreshProcessSeries.passed(outcome))
        return (spawns.environments.count, note)
      }
      func spend(hadChoice: Bool, hash: UInt64) -> RunSpend {
        RunSpend(
          steps: 10, virtualTime: 0, waitedForOutsideWork: false, hadChoice: hadChoice, dependsOnOutsideTiming: false,
          traceHash: hash)
      }
      let noChoice = run { _ in spend(hadChoice: false, hash: 1) }
      #expect(noChoice.spawns == 1)
      #expect(noChoice.note?.contains("the 1 schedule(s) run pass; the series stopped there") == true, "\(noChoice)")
      #expect(noChoice.note?.contains("no scheduling choice") == true, "\(noChoice)")
      // Two new interleavings, then the same again: 12 schedules in a row with nothing new.
      let repeating = run { number in spend(hadChoice: true, hash: UInt64(min(number, 2))) }
      #expect(repeating.spawns == 14, "\(repeating)")
      #expect(repeating.note?.contains("12 schedules in a row gave no new interleaving") == true, "\(repeating)")
      #expect(run { _ in nil }.spawns == 40)
      #expect(run({ _ in spend(hadChoice: false, hash: 1) }, budget: nil).spawns == 40)
    }

    @Test func theReplayLineAndTheScheduleAreReadFromTheFailure() {
      let saved = ChildProcessIsolation.ChildIssue(
        text: "Controlled schedule 7 failed (PCT depth 3, 100 schedules, seed 0): deadlock\n"
          + "Replay it alone: QUEUE_TESTING_SCHEDULE_FILE='/tmp/a b.schedule' swift test --filter x",
        fileID: "M/F.swift", filePath: "/F.swift", line: 1, column: 1)
      #expect(FreshProcessSeries.failingScheduleNumber(in: [saved]) == 7)
      #expect(
        FreshProcessSeries.replayEnvironment(in: [saved]) == [
          ControlledScheduling.scheduleFileVariable: "/tmp/a b.schedule"
        ])
      #expect(FreshProcessSeries.failingScheduleNumber(in: []) == nil)
    }

    @Test func theModeComesFromTheEnvironment() throws {
      #expect(try FreshProcessSeries.Mode.from(environment: [:]) == .auto)
      #expect(
        try FreshProcessSeries.Mode.from(environment: [ControlledScheduling.freshProcessVariable: "Always"]) == .always)
      #expect(throws: ControlledSchedulingError.self) {
        try FreshProcessSeries.Mode.from(environment: [ControlledScheduling.freshProcessVariable: "sometimes"])
      }
    }
  }
#endif
