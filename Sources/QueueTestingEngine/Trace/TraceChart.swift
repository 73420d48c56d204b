/// A picture of a run: a self-contained HTML page with an SVG swimlane chart, one lane per task,
/// steps along the x axis.
///
/// Each lane is a `<g data-task="…">` group named after its task (its name where it has one; jobs
/// that belong to no task, such as actors' drains, share lane 0). Each job is a block coloured by
/// the executor it ran on (the global executor, the main actor, a timer), and a dashed link joins
/// two jobs of one task that ran on different executors: a hop. Preemptions are marked with a red
/// arrow from the task that could have kept running to the one that ran, and a failure with a red
/// diamond at its step. Hovering a block shows its step, task, executor, virtual time and the
/// events of that step (queue items, marks, named waits, cancellations). The page loads nothing
/// from the network and runs no script.
public struct TraceChart: Sendable {
  /// A failure to mark on the chart.
  public struct FailureMark: Sendable, Equatable {
    /// The step during which it was recorded (0: before the first job).
    public var step: Int
    /// The run-local id of the task that recorded it (0: unknown).
    public var task: Int
    /// What failed, with its source location where known.
    public var text: String

    /// Creates a mark.
    public init(step: Int, task: Int, text: String) {
      self.step = step
      self.task = task
      self.text = text
    }
  }

  /// The run drawn.
  public var run: RunResult
  /// The page's title.
  public var title: String
  /// The run's preemptions (nil: not counted).
  public var preemptions: [Preemption]?
  /// Failures to mark.
  public var failures: [FailureMark]

  /// Creates a chart.
  public init(run: RunResult, title: String, preemptions: [Preemption]? = nil, failures: [FailureMark] = []) {
    self.run = run
    self.title = title
    self.preemptions = preemptions
    self.failures = failures
  }

  /// The most steps drawn; a longer run shows its last steps.
  public static let maximumSteps = 2_000

  /// The HTML page.
  public var html: String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>\(Self.escape(title))</title>
    <style>
    body { font: 13px -apple-system, "Helvetica Neue", sans-serif; margin: 16px; color: #222; }
    h1 { font-size: 16px; } p, li { max-width: 60em; } .legend span { display: inline-block; margin-right: 1.5em; }
    .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
    svg text { font: 11px -apple-system, "Helvetica Neue", sans-serif; }
    </style>
    </head>
    <body>
    <h1>\(Self.escape(title))</h1>
    <p>\(Self.escape(summary))</p>
    <p class="legend"><span><i class="swatch" style="background:#4a7bd0"></i>global executor</span><span><i class="swatch" style="background:#9b59b6"></i>main actor</span><span><i class="swatch" style="background:#2e9e6a"></i>timer</span><span><i class="swatch" style="background:#d0342c"></i>preemption / failure</span><span>dashed: a hop between executors</span></p>
    \(svg)
    </body>
    </html>

    """
  }

  /// One line about the run.
  var summary: String {
    var line = "\(run.steps) steps, schedule \(run.schedule)"
    if let preemptions {
      line += "; \(preemptions.count) preemption\(preemptions.count == 1 ? "" : "s")"
    } else {
      line += "; preemptions not counted (the schedule was not reduced)"
    }
    if run.steps > Self.maximumSteps { line += "; the last \(Self.maximumSteps) steps are drawn" }
    return line
  }

  /// The SVG chart alone.
  public var svg: String {
    let events = run.trace.events
    let firstStep = max(1, run.steps - Self.maximumSteps + 1)
    let ran = events.filter { if case .ran = $0.kind { $0.step >= firstStep } else { false } }
    let preemptions = self.preemptions ?? []
    let tasks = Array(Set(ran.map(\.task) + preemptions.flatMap { [$0.from, $0.to] } + failures.map(\.task)))
      .filter { $0 != 0 || ran.contains { $0.task == 0 } }.sorted()
    let lane = Dictionary(uniqueKeysWithValues: tasks.enumerated().map { ($1, $0) })
    let labelWidth = 190
    let stepWidth = max(4, min(24, 1_600 / max(ran.count, 1)))
    let laneHeight = 28
    let top = 24
    let width = labelWidth + stepWidth * (run.steps - firstStep + 2) + 20
    let height = top + laneHeight * tasks.count + 16
    func x(_ step: Int) -> Int { labelWidth + (step - firstStep) * stepWidth }
    func y(_ task: Int) -> Int { top + (lane[task] ?? 0) * laneHeight }
    var stepNotes: [Int: [String]] = [:]
    for event in events where event.step >= firstStep {
      if case .ran = event.kind { continue }
      stepNotes[event.step, default: []].append("\(run.trace.label(ofTask: event.task)): \(event.kind.summary)")
    }
    var out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
      + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(Self.escape(title))\">\n"
    // Step axis: a tick every ten steps.
    out += "<g class=\"axis\">"
    for step in stride(from: (firstStep + 9) / 10 * 10, through: run.steps, by: 10) {
      out += "<text x=\"\(x(step))\" y=\"14\">\(step)</text>"
    }
    out += "</g>\n"
    for task in tasks {
      let label = task == 0 ? "jobs of no task (actor drains)" : run.trace.label(ofTask: task)
      out += "<g data-task=\"\(Self.escape(label))\" class=\"lane\">\n"
      out += "<text x=\"4\" y=\"\(y(task) + 17)\">\(Self.escape(label))</text>"
      out +=
        "<line x1=\"\(labelWidth)\" x2=\"\(width - 10)\" y1=\"\(y(task) + 13)\" y2=\"\(y(task) + 13)\" stroke=\"#ddd\"/>\n"
      var previous: Trace.Event?
      for event in ran where event.task == task {
        guard case .ran(let source) = event.kind else { continue }
        let (color, place) =
          switch source {
          case .global: ("#4a7bd0", "the global executor")
          case .main: ("#9b59b6", "the main actor")
          case .timer: ("#2e9e6a", "a timer")
          }
        if let previous, case .ran(let before) = previous.kind, before != source {
          out +=
            "<line x1=\"\(x(previous.step) + stepWidth / 2)\" y1=\"\(y(task) + 13)\" x2=\"\(x(event.step) + stepWidth / 2)\" "
            + "y2=\"\(y(task) + 13)\" stroke=\"#555\" stroke-dasharray=\"3,2\"/>"
        }
        var hover = "step \(event.step), \(label): ran on \(place) at \(event.virtualTime) ns"
        for note in stepNotes[event.step] ?? [] { hover += "\n" + note }
        out +=
          "<rect x=\"\(x(event.step))\" y=\"\(y(task) + 5)\" width=\"\(max(stepWidth - 1, 2))\" height=\"16\" "
          + "fill=\"\(color)\"><title>\(Self.escape(hover))</title></rect>"
        previous = event
      }
      out += "\n</g>\n"
    }
    for preemption in preemptions where preemption.step >= firstStep {
      let cx = x(preemption.step) + stepWidth / 2
      out +=
        "<g class=\"preemption\"><line x1=\"\(cx)\" y1=\"\(y(preemption.from) + 13)\" x2=\"\(cx)\" y2=\"\(y(preemption.to) + 13)\" "
        + "stroke=\"#d0342c\" stroke-width=\"2\"/><circle cx=\"\(cx)\" cy=\"\(y(preemption.from) + 13)\" r=\"4\" "
        + "fill=\"#d0342c\"><title>\(Self.escape("preemption at step \(preemption.step): \(run.trace.label(ofTask: preemption.from)) could have gone on; \(run.trace.label(ofTask: preemption.to)) ran"))</title></circle></g>\n"
    }
    for failure in failures where failure.step >= firstStep - 1 {
      let cx = x(max(failure.step, firstStep)) + stepWidth / 2
      let cy = y(failure.task) + 13
      out +=
        "<g class=\"failure\"><path d=\"M \(cx) \(cy - 8) L \(cx + 8) \(cy) L \(cx) \(cy + 8) L \(cx - 8) \(cy) Z\" "
        + "fill=\"#d0342c\"><title>\(Self.escape("failure at step \(failure.step): \(failure.text)"))</title></path></g>\n"
    }
    out += "</svg>"
    return out
  }

  /// `text` with the characters HTML and XML give meaning escaped.
  static func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
