/// Renders a ``FuzzReport`` as JUnit XML, the form CI systems (GitHub Actions reporters,
/// Jenkins, GitLab, Buildkite) read: one `testsuite` per command and one `testcase` per
/// scenario, with a `failure` element for a failed scenario.
enum JUnitReport {
  /// The XML document.
  static func xml(_ report: FuzzReport) -> String {
    let suiteName = "queue-fuzz \(report.command)"
    let time = seconds(report.summary.seconds)
    let inputErrors = report.inputErrors ?? []
    let tests = report.summary.scenarios + inputErrors.count
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="queue-fuzz" tests="\#(tests)" failures="\#(report.summary.failed)" errors="\#(inputErrors.count)" time="\#(time)">"#,
      #"  <testsuite name="\#(escape(suiteName))" tests="\#(tests)" failures="\#(report.summary.failed)" errors="\#(inputErrors.count)" skipped="0" time="\#(time)">"#,
      "    <properties>",
    ]
    var properties: [(String, String)] = [
      ("seed", String(report.options.seed)), ("schedules", String(report.options.schedules)),
      ("strategy", report.options.strategy), ("queue-impl", report.options.queueImplementation),
      ("check-determinism", String(report.options.checkDeterminism)),
      ("schedules-per-second", String(Int(report.summary.schedulesPerSecond))),
      ("interrupted", String(report.summary.interrupted)),
    ]
    if let shard = report.options.shard { properties.append(("shard", shard)) }
    for (name, value) in properties {
      lines.append(#"      <property name="\#(escape(name))" value="\#(escape(value))"/>"#)
    }
    lines.append("    </properties>")
    for scenario in report.scenarios {
      var attributes = #"name="\#(escape(scenario.name))" classname="\#(escape(className(scenario, report)))""#
      if let path = scenario.path { attributes += #" file="\#(escape(path))""# }
      attributes += #" time="\#(seconds(scenario.seconds))""#
      guard let failure = scenario.failure else {
        lines.append("    <testcase \(attributes)/>")
        continue
      }
      lines.append("    <testcase \(attributes)>")
      lines.append(
        #"      <failure message="\#(escape(failure.message)) on schedule \#(failure.scheduleNumber)" type="\#(escape(failure.signature))">\#(escape(details(failure)))</failure>"#
      )
      lines.append("    </testcase>")
    }
    // Input that could not be read: one test case per error, so that a CI report shows it.
    for error in inputErrors {
      let place = [error.path, error.line.map(String.init), error.column.map(String.init)].compactMap { $0 }
        .joined(separator: ":")
      lines.append(#"    <testcase name="\#(escape(error.path))" classname="queue-fuzz.input" time="0">"#)
      lines.append(
        #"      <error message="\#(escape(place)): \#(escape(error.message))" type="invalid-input">\#(escape(place)): \#(escape(error.message))</error>"#
      )
      lines.append("    </testcase>")
    }
    lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The scenario's folder (`queue-fuzz.fifo` for `Scenarios/fifo/x.scenario`), or the command.
  private static func className(_ scenario: FuzzReport.ScenarioResult, _ report: FuzzReport) -> String {
    guard let path = scenario.path else { return "queue-fuzz.\(report.command)" }
    let folders = path.split(separator: "/").dropLast()
    return "queue-fuzz." + (folders.last.map(String.init) ?? report.command)
  }

  private static func details(_ failure: FuzzReport.Failure) -> String {
    var lines = [failure.message]
    for violation in failure.violations ?? [] {
      lines.append(
        "\(violation.guarantee) on queue '\(violation.queue)': expected \(violation.expected.joined(separator: ", ")); observed \(violation.observed.joined(separator: ", "))"
      )
    }
    if let expected = failure.expectedOutcome, let observed = failure.observedOutcome {
      lines.append("expected outcome \(expected), observed \(observed)")
    }
    if let deadlock = failure.deadlock { lines.append(deadlock) }
    lines.append("schedule \(failure.schedule), trace hash \(failure.traceHash)")
    if let saved = failure.savedTo { lines.append("saved to \(saved)") }
    lines.append("replay: \(failure.replay)")
    return lines.joined(separator: "\n")
  }

  private static func seconds(_ value: Double) -> String {
    String(Double(Int((value * 1000).rounded())) / 1000)
  }

  /// XML text and attribute escaping; characters XML 1.0 cannot hold are dropped.
  static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\n", "\t", "\r": result.unicodeScalars.append(scalar)
      default:
        if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
