import Foundation
import QueueScenarios
import QueueTestingEngine
import QueueWorkloads
import Testing

@testable import QueueFuzzCore

/// Reading scenario files from disk, as queue-fuzz does.
@Suite("Scenario files", .timeLimit(.minutes(5)), .hangGuard)
struct ScenarioFilesTests {
  /// A scenario has no cancellation targets and no outside work: a saved schedule with '+c' or
  /// '+o' parts is an error at its place (a replay would pass without doing them); timer
  /// delays are kept.
  @Test func scheduleLinesWithCancellationsOrAdmissionsAreRefused() throws {
    let path = scenariosFolder + "/fifo/" + firstScenario(in: scenariosFolder + "/fifo")
    var head = try String(contentsOfFile: path, encoding: .utf8)
    if !head.hasSuffix("\n") { head += "\n" }
    let line = head.split(separator: "\n", omittingEmptySubsequences: false).count
    for (part, expected) in [
      ("+c2@1", "'+c2@1': a scenario has no cancellation targets"),
      ("+o2@1", "'+o2@1': a scenario has no work outside"),
    ] {
      do {
        _ = try ScenarioParser.parse(head + "schedule s1:0\(part)\n", path: "x.scenario")
        Issue.record("a schedule line with \(part) parsed")
      } catch {
        #expect(error.errors.map { "\($0.line):\($0.column)" } == ["\(line):10"])
        #expect(error.errors.first?.message.contains(expected) == true, "\(error.errors)")
      }
    }
    let timed = try ScenarioParser.parse(head + "schedule s1:0+t30\n", path: "x.scenario")
    #expect(timed.regressionSchedules.last == Schedule(choices: [0], timerDelays: [30]))
  }

  /// A file that is not UTF-8 is reported at its first bad byte, not at 1:1.
  @Test func notUTF8IsReportedWhereItIs() throws {
    let folder = madeFolder("not-utf8")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/bad.scenario"
    var data = Data("scenario 1\nqueue q fifo\ncaller c sync\n  enq".utf8)
    data.append(0xFF)
    data.append(contentsOf: Array("ueue q a\n".utf8))
    try data.write(to: URL(fileURLWithPath: path))
    guard case .failure(let errors) = ScenarioFiles.load(path) else {
      Issue.record("a file that is not UTF-8 was read")
      return
    }
    #expect(errors.errors.map { "\($0.line):\($0.column)" } == ["4:6"])
    #expect(errors.errors.first?.message.contains("not UTF-8") == true)
  }
}
