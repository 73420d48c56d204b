import Foundation
import QueueTesting
import Synchronization
import Testing

/// A counter that two tasks increment with a suspension between the read and the write.
actor Counter {
  var value = 0
  func read() -> Int { value }
  func write(_ newValue: Int) { value = newValue }
}

/// Schedules counted across one process, for tests that act on a given schedule.
let schedulesOfExitsOnItsThirdSchedule = Atomic(0)
let runsOfPrintsItsRun = Atomic(0)

@Suite(.controlledScheduling(.random(5, seed: 1)))
struct UserSuiteTests {
  @Test func printsWhatItDoes() async {
    print("printed by printsWhatItDoes")
    FileHandle.standardError.write(Data("written to stderr by printsWhatItDoes\n".utf8))
  }

  @Test func printsItsRun() async {
    print("printed on run \(runsOfPrintsItsRun.add(1, ordering: .relaxed).newValue)")
  }

  @Test func printsThenFails() async {
    print("printed by printsThenFails before its failure")
    #expect(1 + 1 == 3)
  }

  @Test(arguments: [10, 20, 30]) func onlyTwentyFails(value: Int) async {
    #expect(value != 20)
  }

  @Test(arguments: [1, 2]) func cancelsOneCase(value: Int) async throws {
    if value == 2 { try Test.cancel("two is not supported here") }
  }

  @Test func requiresAValue() async throws {
    let missing: Int? = nil
    _ = try #require(missing)
  }

  @Test func cancelsItself() async throws {
    try Test.cancel("the service under test is not configured here")
  }

  @Test func knowsItsIssue() async {
    withKnownIssue("rounding is off by one") {
      #expect(1 + 1 == 3)
    }
  }

  @Test func exitsOnItsThirdSchedule() async {
    if schedulesOfExitsOnItsThirdSchedule.add(1, ordering: .relaxed).newValue == 3 { exit(0) }
  }

  /// `ContinuousClock.now` stays real inside a run, so code that reads the time takes a clock:
  /// `VirtualClock` reads the run's virtual time, which a sleep moves at once.
  @Test func readsTheClockAcrossASleep() async throws {
    let clock = VirtualClock()
    let start = clock.now
    try await clock.sleep(for: .seconds(5))
    #expect(start.duration(to: clock.now) >= .seconds(5))
  }
}

/// `run` returns the report and records nothing in the calling test: this test passes.
@Test func runsASeriesFromCode() async {
  let report = await ControlledScheduling(.random(3, seed: 1)).run {
    #expect(1 + 1 == 3)
  }
  #expect(report.failure?.scheduleNumber == 1)
  #expect(report.failure?.problem == .failuresRecorded(1))
}

/// Each schedule takes 10 s of real time, so the series of 10 outlives the one-minute limit.
@Test(.controlledScheduling(.random(10, seed: 1)), .timeLimit(.minutes(1)))
func outlivesItsTimeLimit() async {
  usleep(10_000_000)
}
