import AsyncQueue
import Foundation
import QueueFuzzCore
import QueueWorkloads
import Testing

@testable import QueueScenarios
@testable import QueueTestingEngine

/// Captures a command's output.
final class CapturedConsole: Sendable {
  private let lines = LockedState<[String]>([])
  private let errors = LockedState<[String]>([])

  var console: FuzzConsole {
    FuzzConsole(
      out: { line in self.lines.withLock { $0.append(line) } },
      err: { line in self.errors.withLock { $0.append(line) } })
  }
  var out: String { lines.withLock { $0.joined(separator: "\n") } }
  var err: String { errors.withLock { $0.joined(separator: "\n") } }
}

/// The corpus folder of this package.
let scenariosFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Scenarios").path

func runFuzz(_ arguments: [String]) -> (Int32, CapturedConsole) {
  let captured = CapturedConsole()
  let status = QueueFuzz.main(arguments, console: captured.console)
  return (status, captured)
}

/// The suites that run scenarios: one at a time, since a process has one controlled run at a
/// time and each run blocks a thread of this 2-core machine's cooperative pool.
@Suite("queue-fuzz commands", .serialized, .timeLimit(.minutes(5)), .hangGuard)
struct QueueFuzzCommandSuites {}

extension QueueFuzzCommandSuites {
  @Suite("queue-fuzz", .timeLimit(.minutes(5)), .hangGuard)
  struct QueueFuzzCommandTests {
    @Test func replayRefusesCancellationsAScenarioCannotMake() {
      let file = scenariosFolder + "/fifo/" + firstScenario(in: scenariosFolder + "/fifo")
      let (status, captured) = runFuzz(["replay", file, "--schedule", "s1:0+c99@99"])
      #expect(status == 2)
      #expect(captured.err.contains("'+c99@99': a scenario has no cancellation targets"), "\(captured.err)")
    }

    /// `run --html DIR` writes the picture of each failing scenario: a lane per task that ran,
    /// and nothing loaded from the network; a passing scenario gets none.
    @Test func htmlPicturesOfFailingScenarios() throws {
      let folder = madeFolder("html")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let (status, output) = runFuzz([
        "run", scenariosFolder + "/fifo/long-line.scenario", "--queue-impl", "fifo-suspend-release", "--html", folder,
      ])
      #expect(status == 1, "\(output.out)")
      let path = folder + "/long-line.html"
      #expect(output.out.contains("picture: \(path)"), "\(output.out)")
      let html = try String(contentsOfFile: path, encoding: .utf8)
      let lanes = html.components(separatedBy: "<g data-task=\"").count - 1
      let tasks = Set(html.matches(of: /<title>step \d+, ([^:]+): ran on/).map { String($0.1) })
      #expect(lanes >= 2 && lanes == tasks.count, "\(lanes) lanes, tasks \(tasks)")
      #expect(html.contains("<svg") && !html.contains("<script"))
      let (passing, _) = runFuzz(["run", scenariosFolder + "/fifo/long-line.scenario", "--html", folder])
      #expect(passing == 0)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["long-line.html"])
    }

    @Test func realQueuesPassTheWholeCorpus() throws {
      let (status, output) = runFuzz(["run", scenariosFolder])
      #expect(status == 0, "\(output.out)\n\(output.err)")
      let files = try #require(FileManager.default.enumerator(atPath: scenariosFolder)?.allObjects as? [String])
      let count = files.filter { $0.hasSuffix(".scenario") }.count
      #expect(count >= 30)
      #expect(output.out.contains("\(count) passed, 0 failed"))
    }

    /// Every mutant makes `run Scenarios/` exit 1; prints within how many schedules each scenario
    /// that catches it does so.
    @Test(arguments: QueueImplementation.mutants)
    func everyMutantIsCaught(_ mutant: QueueImplementation) {
      let (status, output) = runFuzz(["run", scenariosFolder, "--queue-impl", mutant.rawValue])
      #expect(status == 1, "\(mutant.rawValue) was not caught:\n\(output.out)")
      let failures = output.out.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
      #expect(!failures.isEmpty)
      let worst = failures.compactMap { line -> Int? in
        guard let range = line.range(of: "on schedule ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
      }.max()
      print("\(mutant.rawValue): caught by \(failures.count) scenario(s), each within \(worst ?? 0) schedule(s)")
      #expect(output.out.contains("replay: swift run queue-fuzz replay "))
      #expect(output.out.contains("--queue-impl \(mutant.rawValue)"))
      #expect(output.out.contains("expected: "))
      #expect(output.out.contains("observed: "))
    }

    /// `--strategy portfolio` runs the corpus under random and PCT in turn: the real queues pass,
    /// and a mutant that reorders items is caught, and its failure says which member found it.
    @Test func portfolioStrategyRunsTheCorpus() {
      let (status, output) = runFuzz(["run", scenariosFolder, "--strategy", "portfolio", "--schedules", "40"])
      #expect(status == 0, "\(output.out)\n\(output.err)")
      #expect(output.out.contains("strategy portfolio"))
      let (mutantStatus, mutantOutput) = runFuzz([
        "run", scenariosFolder, "--strategy", "portfolio", "--schedules", "40", "--queue-impl", "actor-priority",
      ])
      #expect(mutantStatus == 1, "\(mutantOutput.out)")
      #expect(mutantOutput.out.contains("  found by: random") || mutantOutput.out.contains("  found by: PCT(depth: "))
    }

    /// The one-line replay command reproduces the failure exactly: same trace hash.
    @available(ExecutorHooks 1.0, *)
    @Test func replayReproducesAFailureExactly() throws {
      let file = scenariosFolder + "/fifo/suspend-between-work.scenario"
      let scenario = try ScenarioParser.parse(String(contentsOfFile: file, encoding: .utf8), path: file)
      let report = ScenarioRunner.run(scenario, options: .init(implementation: .taskPerEnqueue))
      let failure = try #require(report.failure)
      let (status, output) = runFuzz([
        "replay", file, "--schedule", failure.run.schedule.description, "--queue-impl", "task-per-enqueue",
      ])
      #expect(status == 1)
      #expect(output.out.contains("trace hash: \(String(failure.run.trace.hash, radix: 16))"))
      let (realStatus, _) = runFuzz(["replay", file, "--schedule", failure.run.schedule.description])
      #expect(realStatus == 0)
    }

    @Test func generatedScenariosParseAndPassOnTheRealQueues() throws {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("queue-fuzz-generate-\(UUID())")
        .path
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let (status, output) = runFuzz(["generate", "--seed", "42", "--count", "25", "--out", directory, "--items", "10"])
      #expect(status == 0, "\(output.err)")
      let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".scenario") }
      #expect(files.count == 25)
      let (runStatus, runOutput) = runFuzz(["run", directory, "--schedules", "50"])
      #expect(runStatus == 0, "\(runOutput.out)")
      // Same seed, same files.
      let again = directory + "-again"
      defer { try? FileManager.default.removeItem(atPath: again) }
      _ = runFuzz(["generate", "--seed", "42", "--count", "25", "--out", again, "--items", "10"])
      for file in files {
        #expect(
          FileManager.default.contents(atPath: directory + "/" + file)
            == FileManager.default.contents(atPath: again + "/" + file))
      }
    }

    @Test func badScenarioFilesExitTwoWithPositions() throws {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("queue-fuzz-bad-\(UUID())").path
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let path = directory + "/bad.scenario"
      try "scenario 1\nqueue q lifo\n".write(toFile: path, atomically: true, encoding: .utf8)
      let (status, output) = runFuzz(["run", directory])
      #expect(status == 2)
      #expect(output.err.contains("\(path):2:9: error: unknown queue kind 'lifo'"))
      #expect(output.err.contains("nothing was run"))
    }

    /// A sleep as long as virtual time can hold is a stuck item, not a crash, in every command.
    @Test func anEndlessSleepIsReportedNotACrash() throws {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "endless-sleep-\(UInt64.random(in: 0...UInt64.max))")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let file = directory.appendingPathComponent("endless.scenario").path
      try "scenario 1\nqueue q fifo\ncaller c sync\n  enqueue q a\nitem a\n  sleep 18446744073709551615ns\n  work\n"
        .write(toFile: file, atomically: true, encoding: .utf8)
      let (run, runOutput) = runFuzz(["run", file, "--schedules", "3"])
      #expect(run == 1)
      #expect(runOutput.out.contains("never fire"), "\(runOutput.out)")
      let (replay, _) = runFuzz(["replay", file, "--schedule", "s1:"])
      #expect(replay == 1)
      let (shrink, _) = runFuzz(["shrink", file, "--schedules", "3"])
      #expect(shrink == 0)
    }

    @Test(arguments: [
      (["run"], "needs at least one PATH"),
      (["run", "/no/such/place"], "no such file or directory"),
      (["run", "Scenarios", "--schedules"], "needs a value"),
      (["run", "Scenarios", "--schedules", "zero"], "expects a whole number"),
      (["run", "Scenarios", "--strategy", "lucky"], "expects one of random, pct, exhaustive"),
      (["run", "Scenarios", "--queue-impl", "broken"], "expects one of real, task-per-enqueue"),
      (["run", "Scenarios", "--fast"], "unknown option '--fast'"),
      (["replay", "x.scenario"], "needs --schedule"),
      (["replay", "x.scenario", "--schedule", "0.1.2"], "invalid --schedule"),
      (["generate"], "needs --out"),
      (["stress", "--duration", "9223372036854775807"], "at most a year"),
      (["stress", "--duration", String(repeating: "9", count: 310)], "at most a year"),
      (["stress", "--duration", "1e400"], "at most a year"),
      (["stress", "--count", "99999999999999999999999"], "expects a whole number"),
      (["frobnicate"], "unknown command 'frobnicate'"),
      ([], "USAGE"),
    ])
    @available(ExecutorHooks 1.0, *)
    func usageErrorsExitTwo(_ arguments: [String], _ phrase: String) {
      let (status, output) = runFuzz(arguments)
      #expect(status == 2)
      #expect(output.err.contains(phrase), "\(output.err)")
    }

    @Test(arguments: [["--help"], ["run", "--help"], ["replay", "--help"], ["generate", "--help"]])
    func helpExitsZero(_ arguments: [String]) {
      let (status, output) = runFuzz(arguments)
      #expect(status == 0)
      #expect(output.out.contains("USAGE"))
    }
  }
}
