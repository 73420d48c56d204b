import Foundation
import QueueScenarios
import QueueTestingEngine

/// The picture of a failing scenario (`--html`): the page the trait attaches to a failing test.
@available(ExecutorHooks 1.0, *)
enum FailureChart {
  /// Writes `folder/NAME.html` for `failure` and returns its path, or nil when it cannot be
  /// written. The failing schedule is replayed once to count its preemptions.
  static func write(
    _ failure: ScenarioFailure, of scenario: Scenario, options: ScenarioRunner.Options, to folder: String
  ) -> String? {
    // The recorder's record is shared with the copy the run takes.
    let recorder = PreemptionRecorder(ReplayStrategy(failure.run.schedule))
    let (again, _) = ScenarioRunner.runOnce(
      scenario, implementation: options.implementation, strategy: recorder, stepBudget: options.stepBudget)
    let preemptions = again.trace.hash == failure.run.trace.hash ? recorder.preemptions : nil
    let chart = TraceChart(
      run: failure.run, title: "\(scenario.name): \(failure.problem.summary)", preemptions: preemptions,
      failures: [TraceChart.FailureMark(step: failure.run.steps, task: 1, text: failure.problem.summary)])
    let name = scenario.name.split { !($0.isLetter || $0.isNumber || $0 == "-") }.joined(separator: "-")
    let path = (folder as NSString).appendingPathComponent((name.isEmpty ? "scenario" : name) + ".html")
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try Data(chart.html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
      return path
    } catch {
      return nil
    }
  }
}
