import AsyncQueue
import Foundation
import QueueWorkloads
import Testing

@testable import QueueFuzzCore
@testable import QueueScenarios
@testable import QueueTestingEngine

/// A fresh temporary folder, removed by the caller.
func temporaryFolder(_ label: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("queue-fuzz-\(label)-\(UUID())").path
}

/// Runs `stress` in this process; `shouldStop` stands in for Ctrl-C (asked between scenarios).
@available(ExecutorHooks 1.0, *)
func runStress(_ arguments: [String], shouldStop: @escaping () -> Bool = { false }) -> (Int32, CapturedConsole) {
  let captured = CapturedConsole()
  let status = StressCommand.run(arguments, console: captured.console, shouldStop: shouldStop)
  return (status, captured)
}

func decodeReport(_ text: String) throws -> FuzzReport {
  try JSONDecoder().decode(FuzzReport.self, from: Data(text.utf8))
}

extension QueueFuzzCommandSuites {
  @Suite("queue-fuzz stress and shrink", .timeLimit(.minutes(5)), .hangGuard)
  struct StressCommandTests {
    @available(ExecutorHooks 1.0, *)
    @Test func shardsAreDisjointAndCoverTheUnshardedRun() throws {
      let common = ["--count", "12", "--seed", "5", "--schedules", "5", "--format", "json", "--no-shrink"]
      let folder = temporaryFolder("shards")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let (status, whole) = runStress(common + ["--failures", folder])
      #expect(status == 0, "\(whole.err)")
      let unsharded = try decodeReport(whole.out)
      #expect(unsharded.scenarios.map { $0.index } == Array(0..<12))

      var seen: [Int: FuzzReport.ScenarioResult] = [:]
      for shard in 1...3 {
        let (shardStatus, output) = runStress(common + ["--shard", "\(shard)/3", "--failures", folder])
        #expect(shardStatus == 0)
        let report = try decodeReport(output.out)
        #expect(report.options.shard == "\(shard)/3")
        for scenario in report.scenarios {
          let index = try #require(scenario.index)
          #expect(index % 3 == shard - 1)
          #expect(seen.updateValue(scenario, forKey: index) == nil, "scenario \(index) ran in two shards")
        }
      }
      #expect(seen.keys.sorted() == Array(0..<12))
      for scenario in unsharded.scenarios {
        let fromShard = try #require(seen[scenario.index ?? -1])
        #expect(fromShard.name == scenario.name)
        #expect(fromShard.schedules == scenario.schedules)
        #expect(fromShard.status == scenario.status)
      }
    }

    /// The same scenario index gives the same scenario whatever the shard.
    @Test func planMakesTheSameScenarioInEveryShard() throws {
      let sizes = ScenarioGenerator.Sizes()
      let whole = StressPlan(seed: 9, shard: .whole, count: 10, sizes: sizes)
      let second = StressPlan(seed: 9, shard: try .init(parsing: "2/4"), count: 10, sizes: sizes)
      #expect(Array(whole.indices) == Array(0..<10))
      #expect(Array(second.indices) == [1, 5, 9])
      for index in second.indices {
        #expect(second.scenario(at: index) == whole.scenario(at: index))
        #expect(second.scheduleSeed(of: index) == whole.scheduleSeed(of: index))
      }
      #expect(whole.scenario(at: 3) != whole.scenario(at: 4))
      for bad in ["0/2", "3/2", "1/0", "a/b", "2", "1/2/3", ""] {
        #expect(throws: ArgumentReader.UsageError.self, "\(bad)") { try StressPlan.Shard(parsing: bad) }
      }
    }

    /// A planted mutant: stress saves shrunk failures, each a small scenario file that
    /// `queue-fuzz run` fails with the mutant and passes with the real queues.
    @available(ExecutorHooks 1.0, *)
    @Test func stressOnAMutantSavesFilesThatRunFailsOn() throws {
      let folder = temporaryFolder("failures")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let (status, output) = runStress([
        "--count", "6", "--seed", "1", "--queue-impl", "fifo-suspend-release", "--failures", folder,
      ])
      #expect(status == 1, "\(output.out)")
      let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".scenario") }
      #expect(!files.isEmpty)
      #expect(output.out.contains("shrunk: "))
      #expect(output.out.contains("saved: \(folder)/"))
      for file in files {
        let path = folder + "/" + file
        let scenario = try ScenarioParser.parse(String(contentsOfFile: path, encoding: .utf8), path: path)
        #expect(scenario.stepCount <= 6, "\(file): \(scenario.stepCount) steps")
        #expect(scenario.regressionSchedules.count == 1)
        let (mutantStatus, mutantOutput) = runFuzz(["run", path, "--queue-impl", "fifo-suspend-release"])
        #expect(mutantStatus == 1)
        #expect(mutantOutput.out.contains("on schedule 1 "))
        let (realStatus, realOutput) = runFuzz(["run", path])
        #expect(realStatus == 0, "\(realOutput.out)")
      }
    }

    /// Failures that shrink to the same small case are saved once; the report points the others
    /// at that file and marks them duplicates.
    @available(ExecutorHooks 1.0, *)
    @Test func failuresThatShrinkToTheSameCaseAreSavedOnce() throws {
      let folder = temporaryFolder("duplicates")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let (status, output) = runStress([
        "--count", "12", "--seed", "1", "--queue-impl", "fifo-suspend-release", "--failures", folder, "--format",
        "json",
      ])
      #expect(status == 1)
      let report = try decodeReport(output.out)
      let failures = report.scenarios.compactMap(\.failure)
      let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder).map { folder + "/" + $0 })
      #expect(failures.count > files.count)
      #expect(Set(failures.compactMap(\.savedTo)) == files)
      #expect(failures.count { $0.duplicate == true } == failures.count - files.count)
      var texts: Set<String> = []
      for file in files {
        var scenario = try ScenarioParser.parse(String(contentsOfFile: file, encoding: .utf8), path: file)
        scenario.name = ""
        scenario.path = nil
        #expect(texts.insert(scenario.text).inserted, "\(file) repeats a saved case")
      }
    }

    @available(ExecutorHooks 1.0, *)
    @Test func stressOnTheRealQueuesFindsNothingAndReportsThroughput() throws {
      let folder = temporaryFolder("real")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let (status, output) = runStress(["--count", "30", "--seed", "3", "--schedules", "20", "--failures", folder])
      #expect(status == 0, "\(output.out)")
      #expect(output.out.contains("queue-fuzz stress: 30 scenario(s), 600 schedules in "))
      #expect(output.out.contains(" schedules/s), 0 failure(s)"))
      #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @available(ExecutorHooks 1.0, *)
    @Test func aTimeBudgetEndsTheSession() throws {
      let (status, output) = runStress(["--duration", "300ms", "--seed", "4", "--schedules", "5"])
      #expect(status == 0)
      let summary = try #require(output.out.split(separator: "\n").last { $0.hasPrefix("queue-fuzz stress: ") })
      let scenarios = Int(summary.dropFirst("queue-fuzz stress: ".count).prefix { $0.isNumber }) ?? 0
      #expect(scenarios >= 1)
    }

    /// Ctrl-C (here: the stop request the signal handler sets) ends the session between scenarios
    /// with a summary and exit status 130.
    @available(ExecutorHooks 1.0, *)
    @Test func stopRequestEndsWithASummary() throws {
      let asked = LockedState(0)
      let (status, output) = runStress(["--count", "50", "--seed", "2", "--schedules", "5", "--format", "json"]) {
        asked.withLock { count in
          count += 1
          return count > 3
        }
      }
      #expect(status == 130)
      let report = try decodeReport(output.out)
      #expect(report.summary.interrupted)
      #expect(report.summary.scenarios == 3)
    }

    /// A console that prints each line and raises SIGINT after the first, as Ctrl-C would.
    static func consoleRaisingSIGINT() -> FuzzConsole {
      let raised = LockedState(false)
      return FuzzConsole(
        out: { line in
          print(line)
          let first = raised.withLock { raised in
            defer { raised = true }
            return !raised
          }
          if first { raise(SIGINT) }
        }, err: { _ in })
    }

    /// The real signal path, in a child process: SIGINT after the session's first line stops it
    /// before its first scenario; the summary is printed and the exit status is 130.
    @Test func sigintStopsTheProcessCleanly() async {
      let child = await #expect(processExitsWith: .exitCode(130), observing: [\.standardOutputContent]) {
        exit(
          QueueFuzz.main(
            ["stress", "--duration", "10m", "--seed", "1"], console: StressCommandTests.consoleRaisingSIGINT()))
      }
      let output = String(decoding: child?.standardOutputContent ?? [], as: UTF8.self)
      #expect(output.contains("queue-fuzz stress: 0 scenario(s), 0 schedules in "))
      #expect(output.contains("interrupted by Ctrl-C"))
    }

    /// `run` takes Ctrl-C the same way: SIGINT after its first line stops it before its first
    /// scenario, with the summary, exit status 130.
    @Test func sigintStopsARunCleanly() async {
      let child = await #expect(processExitsWith: .exitCode(130), observing: [\.standardOutputContent]) {
        exit(QueueFuzz.main(["run", scenariosFolder], console: StressCommandTests.consoleRaisingSIGINT()))
      }
      let output = String(decoding: child?.standardOutputContent ?? [], as: UTF8.self)
      #expect(output.contains("queue-fuzz: 0 passed, 0 failed"))
      #expect(output.contains("not run (interrupted by Ctrl-C)"))
    }

    @Test func determinismCheckIsAFailureOfItsOwnKind() throws {
      let folder = scenariosFolder + "/fifo"
      let (plain, _) = runFuzz(["run", folder, "--queue-impl", "state-between-runs", "--schedules", "20"])
      #expect(plain == 0)
      let (checked, output) = runFuzz([
        "run", folder, "--queue-impl", "state-between-runs", "--schedules", "20", "--check-determinism",
      ])
      #expect(checked == 1)
      #expect(output.out.contains("nondeterminism: the same schedule gave trace hashes "))
      #expect(output.out.contains("--check-determinism"))
      let (real, _) = runFuzz(["run", folder, "--schedules", "20", "--check-determinism"])
      #expect(real == 0)
    }

    @available(ExecutorHooks 1.0, *)
    @Test func shrinkPrintsSizesAndWritesARegressionFile() throws {
      let folder = temporaryFolder("shrink")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      var generator = ScenarioGenerator(seed: 11, sizes: .init(items: 8))
      var scenario = generator.next(name: "big")
      var seed: UInt64 = 11
      while ScenarioRunner.run(scenario, options: .init(implementation: .fifoReleasesAtSuspension)).failure == nil {
        seed += 1
        generator = ScenarioGenerator(seed: seed, sizes: .init(items: 8))
        scenario = generator.next(name: "big")
      }
      let input = folder + "/big.scenario"
      try scenario.text.write(toFile: input, atomically: true, encoding: .utf8)
      let output = folder + "/small.txt"
      let (status, printed) = runFuzz([
        "shrink", input, "--queue-impl", "fifo-suspend-release", "--out", output,
      ])
      #expect(status == 0, "\(printed.err)")
      #expect(printed.out.contains("before: "))
      #expect(printed.out.contains("after:  "))
      #expect(printed.out.contains("saved: \(output)"))
      let (mutantStatus, _) = runFuzz(["run", output, "--queue-impl", "fifo-suspend-release"])
      #expect(mutantStatus == 1)
      let (realStatus, _) = runFuzz(["run", output])
      #expect(realStatus == 0)

      // The real queues do not fail it: nothing to shrink, exit 2.
      let (nothing, message) = runFuzz(["shrink", input, "--schedules", "20"])
      #expect(nothing == 2)
      #expect(message.err.contains("nothing to shrink"))
    }

    static let usageMistakes: [([String], String)] = [
      (["stress"], "needs --duration D or --count N"),
      (["stress", "--duration", "soon"], "expects a positive time"),
      (["stress", "--count", "5", "--shard", "3/2"], "expects i/n with 1 <= i <= n"),
      (["stress", "--count", "5", "extra"], "unexpected argument 'extra'"),
      (["run", "Scenarios", "--output", "x.json"], "--output FILE needs --format json"),
      (["run", "Scenarios", "--format", "yaml"], "expects one of text, json, junit"),
      (["shrink"], "needs exactly one FILE"),
      (["shrink", "x.scenario", "--schedule", "nope"], "invalid --schedule"),
    ]

    @Test(arguments: Self.usageMistakes)
    func usageMistakesExitTwo(_ arguments: [String], _ phrase: String) {
      let (status, output) = runFuzz(arguments)
      #expect(status == 2)
      #expect(output.err.contains(phrase), "\(output.err)")
    }

    @Test func durationsRead() {
      #expect(DurationText.seconds("30s") == 30)
      #expect(DurationText.seconds("10m") == 600)
      #expect(DurationText.seconds("1h") == 3600)
      #expect(DurationText.seconds("500ms") == 0.5)
      #expect(DurationText.seconds("45") == 45)
      #expect(DurationText.seconds("0s") == nil)
      #expect(DurationText.seconds("10 m") == nil)
      #expect(DurationText.seconds("m") == nil)
    }
  }
}

extension QueueFuzzCommandSuites {
  /// Shrinking keeps only reductions that stay true on the real queues.
  @Suite("Shrinking preserves truth", .timeLimit(.minutes(5)), .hangGuard)
  struct ShrinkTruthTests {
    /// A generated scenario whose shrink, without the check, hoists a `wait` across two queues
    /// into an item that waits on its own FIFO queue: a file that deadlocks on any queue.
    @available(ExecutorHooks 1.0, *)
    static func failingCase() throws -> (Scenario, Schedule, ScenarioRunner.Options) {
      let plan = StressPlan(seed: 3, shard: .whole, count: nil, sizes: ScenarioGenerator.Sizes())
      let scenario = plan.scenario(at: 1806)
      var options = ScenarioRunner.Options(schedules: 100, implementation: .fifoReleasesAtSuspension)
      options.seed = plan.scheduleSeed(of: 1806)
      let failure = try #require(ScenarioRunner.run(scenario, options: options).failure)
      return (scenario, failure.run.schedule, options)
    }

    @available(ExecutorHooks 1.0, *)
    static func passesOnTheRealQueues(_ scenario: Scenario) -> Bool {
      ScenarioRunner.run(scenario, options: ScenarioRunner.Options(schedules: 300)).failure == nil
    }

    @available(ExecutorHooks 1.0, *)
    @Test func aReductionThatIsFalseOnTheRealQueuesIsRejected() throws {
      let (scenario, schedule, options) = try Self.failingCase()
      #expect(Self.passesOnTheRealQueues(scenario))

      let unchecked = try #require(
        ScenarioShrinker(options: options, runBudget: 20_000, truthSchedules: 0).shrink(scenario, schedule: schedule))
      #expect(!Self.passesOnTheRealQueues(unchecked.scenario), "the planted self-wait reduction is no longer made")

      let shrunk = try #require(
        ScenarioShrinker(options: options, runBudget: 20_000).shrink(scenario, schedule: schedule))
      #expect(Self.passesOnTheRealQueues(shrunk.scenario))
      #expect(ScenarioRunner.run(shrunk.scenario, options: options).failure != nil)
      #expect(shrunk.after.items <= 4)
    }
  }
}
