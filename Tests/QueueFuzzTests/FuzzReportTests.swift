import Foundation
import QueueWorkloads
import Testing

@testable import QueueFuzzCore
@testable import QueueScenarios
@testable import QueueTestingEngine

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The JSON example between the `fuzz-report-json` markers of `Scenarios/README.md`.
func documentedReportJSON() throws -> Any {
  let readme = URL(fileURLWithPath: scenariosFolder).appendingPathComponent("README.md")
  let text = try String(contentsOf: readme, encoding: .utf8)
  let begin = try #require(text.range(of: "<!-- fuzz-report-json:begin -->\n```json\n"))
  let end = try #require(text.range(of: "```\n<!-- fuzz-report-json:end -->"))
  return try JSONSerialization.jsonObject(with: Data(text[begin.upperBound..<end.lowerBound].utf8))
}

/// The key paths in `actual` that `documented` does not have (arrays: each element against the
/// documented first element).
func undocumentedKeys(_ actual: Any, _ documented: Any, path: String = "") -> [String] {
  switch (actual, documented) {
  case (let actual as [String: Any], let documented as [String: Any]):
    actual.keys.sorted().flatMap { key -> [String] in
      guard let inner = documented[key] else { return [path + "." + key] }
      return undocumentedKeys(actual[key]!, inner, path: path + "." + key)
    }
  case (let actual as [Any], let documented as [Any]):
    documented.first.map { first in
      actual.flatMap { undocumentedKeys($0, first, path: path + "[]") }
    } ?? []
  default:
    []
  }
}

extension QueueFuzzCommandSuites {
  @Suite("queue-fuzz reports", .timeLimit(.minutes(5)), .hangGuard)
  struct FuzzReportTests {
    /// A file that does not parse still gets its report: JSON names the file, line and column,
    /// JUnit has an error per problem, and nothing ran (exit 2).
    @Test func aParseErrorStillWritesItsReport() throws {
      let folder = madeFolder("parse-error-report")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let file = folder + "/broken.scenario"
      try "scenario 1\nqueue q lifo\n".write(toFile: file, atomically: true, encoding: .utf8)
      let (status, _) = runFuzz(["run", file, "--format", "json", "--output", folder + "/report.json"])
      #expect(status == 2)
      let report = try JSONDecoder().decode(
        FuzzReport.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json")))
      #expect(report.summary.stopReason == "invalid-input")
      #expect(report.scenarios.isEmpty)
      let first = try #require(report.inputErrors?.first)
      #expect(first.path == file && first.line == 2 && first.column == 9, "\(first)")
      let (junitStatus, junit) = runFuzz(["run", file, "--format", "junit"])
      #expect(junitStatus == 2)
      #expect(junit.out.contains(#"errors="\#(report.inputErrors?.count ?? 0)""#))
      #expect(junit.out.contains("<error message=\"\(file):2:9: "))
      let (missingStatus, missing) = runFuzz(["run", folder + "/nothing-here", "--format", "json"])
      #expect(missingStatus == 2)
      #expect(missing.out.contains("\"message\" : \"no such file or directory\""), "\(missing.out)")
    }

    /// A scenario that deadlocks where it should complete: its JSON failure carries the deadlock
    /// report and leaves out the empty `violations`, and its JUnit failure has the report too.
    @Test func aDeadlockedFailureCarriesItsReport() throws {
      let folder = madeFolder("deadlock-report")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let source = try String(
        contentsOfFile: scenariosFolder + "/deadlock/fifo-item-waits-for-own-queue.scenario", encoding: .utf8)
      let file = folder + "/flipped.scenario"
      try source.replacingOccurrences(of: "outcome deadlocks", with: "outcome completes")
        .write(toFile: file, atomically: true, encoding: .utf8)
      let (status, captured) = runFuzz(["run", file, "--schedules", "5", "--format", "json"])
      #expect(status == 1)
      let report = try JSONDecoder().decode(FuzzReport.self, from: Data(captured.out.utf8))
      let failure = try #require(report.scenarios.first?.failure)
      #expect(failure.kind == "outcome")
      #expect(failure.violations == nil)
      #expect(failure.deadlock?.contains("deadlock: the root task did not finish") == true)
      #expect(!captured.out.contains("\"violations\""))
      let (_, junit) = runFuzz(["run", file, "--schedules", "5", "--format", "junit"])
      #expect(junit.out.contains("deadlock: the root task did not finish"))
    }

    /// A failing run that did work outside the harness says so in its JSON failure; one that did
    /// not (every scenario run) leaves the key out.
    @Test func outsideWorkIsReportedOnlyWhenThereWasSome() throws {
      var run = RunResult(
        outcome: .completed, choices: ChoiceLog(), trace: Trace(), virtualTime: 0, strategySummary: nil,
        inlineHopTasks: [])
      let kind = ScenarioProblem.unexpectedOutcome(expected: .deadlocks, observed: .completed)
      let quiet = FuzzReport.Failure(
        ScenarioFailure(problem: kind, scheduleNumber: 1, series: .random(1), run: run), replay: "r")
      #expect(quiet.outsideWork == nil)
      #expect(!String(decoding: try JSONEncoder().encode(quiet), as: UTF8.self).contains("outsideWork"))
      run.outsideWork.note(job: true, executor: "QueueExecutor")
      let outside = FuzzReport.Failure(
        ScenarioFailure(problem: kind, scheduleNumber: 1, series: .random(1), run: run), replay: "r")
      #expect(outside.outsideWork == "1 job(s) came back from work that ran outside the harness (on QueueExecutor)")
      #expect(String(decoding: try JSONEncoder().encode(outside), as: UTF8.self).contains("\"outsideWork\""))
    }

    /// The README's example is a valid report, and every key a real report writes is documented.
    @Test func jsonShapeIsTheDocumentedOne() throws {
      let documented = try documentedReportJSON()
      let documentedData = try JSONSerialization.data(withJSONObject: documented)
      _ = try JSONDecoder().decode(FuzzReport.self, from: documentedData)

      let folder = temporaryFolder("json")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let runs: [[String]] = [
        ["run", scenariosFolder, "--schedules", "10", "--format", "json"],
        [
          "run", scenariosFolder + "/deadlock", "--schedules", "10", "--queue-impl", "task-per-enqueue", "--format",
          "json",
        ],
        ["run", scenariosFolder + "/fifo", "--strategy", "exhaustive", "--schedules", "5", "--format", "json"],
        [
          "run", scenariosFolder + "/fifo", "--schedules", "5", "--queue-impl", "state-between-runs",
          "--check-determinism", "--format", "json",
        ],
        [
          "stress", "--count", "4", "--seed", "1", "--schedules", "20", "--queue-impl", "fifo-suspend-release",
          "--failures", folder, "--shard", "1/2", "--duration", "1h", "--format", "json",
        ],
      ]
      var kinds: Set<String> = []
      for arguments in runs {
        let (status, output) = runFuzz(arguments)
        #expect(status != 2, "\(arguments): \(output.err)")
        let object = try JSONSerialization.jsonObject(with: Data(output.out.utf8))
        #expect(undocumentedKeys(object, documented).isEmpty, "\(arguments): \(undocumentedKeys(object, documented))")
        let report = try decodeReport(output.out)
        #expect(report.tool == "queue-fuzz")
        #expect(report.formatVersion == 1)
        #expect(report.command == arguments[0])
        #expect(report.summary.scenarios == report.scenarios.count)
        #expect(report.summary.schedules == report.scenarios.reduce(0) { $0 + $1.schedules })
        #expect(report.summary.failed == report.scenarios.count { $0.failure != nil })
        #expect((status == 1) == (report.summary.failed > 0))
        kinds.formUnion(report.scenarios.compactMap { $0.failure?.kind })
        for scenario in report.scenarios {
          let distinct = try #require(scenario.distinctTraces)
          #expect(distinct >= 1 && distinct <= scenario.schedules)
          let sinceNew = try #require(scenario.schedulesSinceNewTrace)
          #expect(sinceNew >= 0 && sinceNew < scenario.schedules)
        }
      }
      #expect(kinds == ["guarantee", "outcome", "nondeterminism"])
    }

    @Test func jsonGoesToAFileWithTheTextStillPrinted() throws {
      let folder = temporaryFolder("json-file")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let file = folder + "/report.json"
      let (status, output) = runFuzz([
        "run", scenariosFolder + "/main", "--schedules", "10", "--format", "json", "--output", file,
      ])
      #expect(status == 0)
      #expect(output.out.contains("PASS "))
      let report = try decodeReport(String(contentsOfFile: file, encoding: .utf8))
      #expect(report.scenarios.map(\.status) == ["passed", "passed", "passed"])
      #expect(report.scenarios.allSatisfy { $0.path?.hasPrefix(scenariosFolder + "/main/") == true })
    }

    /// JUnit: one testcase per scenario, a failure element for each failed one; it parses as XML.
    @Test func junitHasOneTestcasePerScenario() throws {
      let folder = temporaryFolder("junit")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let file = folder + "/report.xml"
      let (status, output) = runFuzz([
        "run", scenariosFolder, "--schedules", "10", "--queue-impl", "task-per-enqueue", "--format", "junit",
        "--output", file,
      ])
      #expect(status == 1)
      let failed = output.out.split(separator: "\n").count { $0.hasPrefix("FAIL ") }
      let passed = output.out.split(separator: "\n").count { $0.hasPrefix("PASS ") }
      #expect(failed > 0)

      let document = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: file)))
      let root = try #require(document.rootElement())
      #expect(root.name == "testsuites")
      #expect(root.attribute(forName: "tests")?.stringValue == String(failed + passed))
      #expect(root.attribute(forName: "failures")?.stringValue == String(failed))
      let cases = try document.nodes(forXPath: "/testsuites/testsuite/testcase").compactMap { $0 as? XMLElement }
      #expect(cases.count == failed + passed)
      #expect(try document.nodes(forXPath: "/testsuites/testsuite/testcase/failure").count == failed)
      for testcase in cases {
        #expect(testcase.attribute(forName: "name")?.stringValue?.isEmpty == false)
        #expect(testcase.attribute(forName: "classname")?.stringValue?.hasPrefix("queue-fuzz.") == true)
        #expect(Double(testcase.attribute(forName: "time")?.stringValue ?? "") != nil)
      }
      let failure = try #require(
        try document.nodes(forXPath: "//failure").first as? XMLElement)
      #expect(failure.stringValue?.contains("replay: swift run queue-fuzz replay ") == true)
      #expect(failure.attribute(forName: "type")?.stringValue?.isEmpty == false)
    }

    @Test func xmlEscapingKeepsTheDocumentWellFormed() throws {
      var report = FuzzReport(
        command: "run",
        options: .init(.init()),
        scenarios: [
          FuzzReport.ScenarioResult(
            name: #"a <b> & "c" 'd' \#u{1}"#, path: "x/y.scenario", index: nil, status: "passed", schedules: 1,
            exhausted: nil, seconds: 0.001, failure: nil)
        ], summary: .init([], seconds: 0, interrupted: false))
      report.summary = FuzzReport.Summary(report.scenarios, seconds: 0.001, interrupted: false)
      let document = try XMLDocument(data: Data(JUnitReport.xml(report).utf8))
      let testcase = try #require(try document.nodes(forXPath: "//testcase").first as? XMLElement)
      #expect(testcase.attribute(forName: "name")?.stringValue == #"a <b> & "c" 'd' "#)
    }
  }
}
