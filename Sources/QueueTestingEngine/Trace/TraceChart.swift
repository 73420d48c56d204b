/// A picture of a run: a self-contained HTML page with an SVG swimlane chart, steps along the x
/// axis, that reads on a real failure.
///
/// - The page says first what failed (each failure mark's text, with its step and task) and
///   then the run's schedule, which wraps however long it is.
/// - **Actors' lanes** come first, one per actor the run drained (named after its type, see
///   ``ActorWork``) and one for the main actor when its jobs ran: each turn a task had on the
///   actor is a block of that task's colour, labelled with its number where there is room, so
///   the order in which the tasks' work ran on the actor can be read off the lane. Under the
///   chart, the same order is spelled out per actor.
/// - **Tasks' lanes** follow, a `<g data-task="…">` group each, named after its task. When a
///   run has more than ``maximumTaskLanes`` tasks, the root, the tasks a preemption or a failure
///   names and the first others get lanes, and the rest share one folded lane whose blocks still
///   name their task. Jobs that belong to no task and no actor's turn share one lane.
/// - Each job is a block coloured by the executor it ran on, and a dashed link joins two jobs of
///   one task that ran on different executors: a hop. Preemptions are a red arrow from the task
///   that could have kept running to the one that ran; a failure is a red diamond at its step,
///   with a red line down every lane there.
///
/// The chart scales to the page's width, so the whole run, its failure included, is in view.
/// Hovering a block shows its step, task, executor, virtual time and the events of that step. The
/// page loads nothing from the network and runs no script.
package struct TraceChart: Sendable {
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

  /// The most tasks with a lane of their own; the others share a folded lane.
  public static let maximumTaskLanes = 12

  /// The HTML page.
  public var html: String {
    let failed =
      failures.isEmpty
      ? ""
      : "<ul class=\"failures\">"
        + failures.map { failure in
          let task = failure.task == 0 ? "" : ", \(run.trace.label(ofTask: failure.task))"
          return "<li>Step \(failure.step)\(Self.escape(task)): \(Self.escape(failure.text))</li>"
        }.joined() + "</ul>\n"
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>\(Self.escape(title))</title>
      <style>
      body { font: 13px -apple-system, "Helvetica Neue", sans-serif; margin: 16px; color: #222; }
      h1 { font-size: 16px; } p, li { max-width: 60em; } .legend span { display: inline-block; margin-right: 1.5em; }
      .failures li { color: #b0241c; font-weight: 600; }
      .schedule { font-family: ui-monospace, Menlo, monospace; overflow-wrap: anywhere; word-break: break-all; }
      .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
      svg { max-width: 100%; height: auto; } svg text { font: 11px -apple-system, "Helvetica Neue", sans-serif; }
      .order { font-family: ui-monospace, Menlo, monospace; overflow-wrap: anywhere; }
      </style>
      </head>
      <body>
      <h1>\(Self.escape(title))</h1>
      \(failed)<p>\(Self.escape(summary))</p>
      <p class="schedule">Schedule: \(Self.escape(run.schedule.description))</p>
      <p class="legend"><span><i class="swatch" style="background:#4a7bd0"></i>global executor</span><span><i class="swatch" style="background:#9b59b6"></i>main actor</span><span><i class="swatch" style="background:#2e9e6a"></i>timer</span><span><i class="swatch" style="background:#d0342c"></i>preemption / failure</span><span>dashed: a hop between executors</span><span>on an actor's lane, each colour and number is a task</span></p>
      \(svg)
      \(actorOrder)
      </body>
      </html>

      """
  }

  /// One line about the run.
  var summary: String {
    var line = "\(run.steps) steps"
    if let preemptions {
      line += "; \(preemptions.count) preemption\(preemptions.count == 1 ? "" : "s")"
    } else {
      line += "; preemptions not counted (the schedule was not reduced)"
    }
    if run.steps > Self.maximumSteps { line += "; the last \(Self.maximumSteps) steps are drawn" }
    return line
  }

  /// The order of the tasks' turns on each actor, spelled out.
  var actorOrder: String {
    let firstStep = max(1, run.steps - Self.maximumSteps + 1)
    var lines: [String] = []
    for (index, name) in run.actorWork.actorNames.enumerated() {
      let turns = run.actorWork.turns.filter { $0.actor == index && $0.step >= firstStep }
      guard !turns.isEmpty else { continue }
      let order = turns.map { "\($0.task)" }.joined(separator: " · ")
      lines.append(
        "<p class=\"order\" data-actor-order=\"\(Self.escape(name))\">Tasks' turns on \(Self.escape(name)), in the "
          + "order they ran: \(order)</p>")
    }
    return lines.joined(separator: "\n")
  }

  /// A lane of the chart.
  private enum Lane: Hashable {
    case actor(Int)
    case mainActor
    case task(Int)
    case folded
    case noTask
  }

  /// The SVG chart alone.
  public var svg: String {
    let events = run.trace.events
    let firstStep = max(1, run.steps - Self.maximumSteps + 1)
    let ran = events.filter { if case .ran = $0.kind { $0.step >= firstStep } else { false } }
    let preemptions = self.preemptions ?? []
    let turns = run.actorWork.turns.filter { $0.step >= firstStep }
    let drainSteps = Set(turns.map(\.step))
    // Tasks: the root, those a preemption or failure names, then the others in order of id.
    let allTasks = Set(ran.map(\.task) + preemptions.flatMap { [$0.from, $0.to] } + failures.map(\.task)).subtracting(
      [0]
    ).sorted()
    let named = Set([1] + preemptions.flatMap { [$0.from, $0.to] } + failures.map(\.task))
    var shown = allTasks.filter { named.contains($0) }
    for task in allTasks where shown.count < Self.maximumTaskLanes && !shown.contains(task) { shown.append(task) }
    if allTasks.count > Self.maximumTaskLanes + 1 {
      shown = Array(shown.prefix(Self.maximumTaskLanes))
    } else {
      shown = allTasks
    }
    let shownSet = Set(shown.sorted())
    let foldedCount = allTasks.count - shownSet.count
    var lanes: [Lane] = run.actorWork.actorNames.indices.filter { index in turns.contains { $0.actor == index } }.map {
      .actor($0)
    }
    if ran.contains(where: { if case .ran(.main) = $0.kind { true } else { false } }) { lanes.append(.mainActor) }
    lanes += shownSet.sorted().map { .task($0) }
    if foldedCount > 0 { lanes.append(.folded) }
    if ran.contains(where: { $0.task == 0 && !drainSteps.contains($0.step) }) { lanes.append(.noTask) }
    let row = Dictionary(uniqueKeysWithValues: lanes.enumerated().map { ($1, $0) })
    func lane(ofTask task: Int) -> Lane {
      task == 0 ? .noTask : shownSet.contains(task) ? .task(task) : .folded
    }

    let labelWidth = 200
    let span = run.steps - firstStep + 1
    let stepWidth = max(1, min(24, 1_200 / max(span, 1)))
    let laneHeight = 28
    let top = 24
    let width = labelWidth + stepWidth * (span + 1) + 20
    let height = top + laneHeight * lanes.count + 16
    func x(_ step: Int) -> Int { labelWidth + (step - firstStep) * stepWidth }
    func y(_ lane: Lane) -> Int { top + (row[lane] ?? 0) * laneHeight }
    var stepNotes: [Int: [String]] = [:]
    for event in events where event.step >= firstStep {
      if case .ran = event.kind { continue }
      stepNotes[event.step, default: []].append("\(run.trace.label(ofTask: event.task)): \(event.kind.summary)")
    }
    var out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
      + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(Self.escape(title))\">\n"
    // Step axis: a tick every ten steps (fewer when steps are narrow).
    let tick = stepWidth >= 4 ? 10 : stepWidth >= 2 ? 20 : 50
    out += "<g class=\"axis\">"
    for step in stride(from: (firstStep + tick - 1) / tick * tick, through: run.steps, by: tick) {
      out += "<text x=\"\(x(step))\" y=\"14\">\(step)</text>"
    }
    out += "</g>\n"
    func laneStart(_ lane: Lane, label: String, attribute: String) {
      out += "<g \(attribute)=\"\(Self.escape(label))\" class=\"lane\">\n"
      out += "<text x=\"4\" y=\"\(y(lane) + 17)\">\(Self.escape(label))</text>"
      out +=
        "<line x1=\"\(labelWidth)\" x2=\"\(width - 10)\" y1=\"\(y(lane) + 13)\" y2=\"\(y(lane) + 13)\" stroke=\"#ddd\"/>\n"
    }
    // Actors' lanes: each turn a block in its task's colour, numbered where there is room.
    for lane in lanes {
      guard case .actor(let index) = lane else { continue }
      let name = run.actorWork.actorNames[index]
      laneStart(lane, label: "actor \(name)", attribute: "data-actor")
      let mine = turns.filter { $0.actor == index }
      var byStep: [Int: [ActorWork.Turn]] = [:]
      for turn in mine { byStep[turn.step, default: []].append(turn) }
      for (step, stepTurns) in byStep.sorted(by: { $0.key < $1.key }) {
        let segment = max(Double(stepWidth) / Double(stepTurns.count), 0.5)
        for (position, turn) in stepTurns.enumerated() {
          let left = Double(x(step)) + segment * Double(position)
          let hover = "step \(step): \(run.trace.label(ofTask: turn.task)) ran on \(name)"
          out +=
            "<rect class=\"turn\" data-turn-task=\"\(turn.task)\" x=\"\(left)\" y=\"\(y(lane) + 3)\" "
            + "width=\"\(max(segment - 0.3, 0.5))\" height=\"20\" fill=\"\(Self.color(ofTask: turn.task))\">"
            + "<title>\(Self.escape(hover))</title></rect>"
          if segment >= 9 {
            out +=
              "<text x=\"\(left + 1)\" y=\"\(y(lane) + 17)\" fill=\"#fff\" font-size=\"9\">\(turn.task)</text>"
          }
        }
      }
      out += "\n</g>\n"
    }
    // The main actor's lane: its jobs, each in its task's colour.
    if row[.mainActor] != nil {
      laneStart(.mainActor, label: "MainActor", attribute: "data-actor")
      for event in ran {
        guard case .ran(.main) = event.kind else { continue }
        let hover = "step \(event.step): \(run.trace.label(ofTask: event.task)) ran on the main actor"
        out +=
          "<rect class=\"turn\" data-turn-task=\"\(event.task)\" x=\"\(x(event.step))\" y=\"\(y(.mainActor) + 3)\" "
          + "width=\"\(max(stepWidth - 1, 1))\" height=\"20\" fill=\"\(Self.color(ofTask: event.task))\">"
          + "<title>\(Self.escape(hover))</title></rect>"
      }
      out += "\n</g>\n"
    }
    // Tasks' lanes, the folded lane and the lane of jobs of no task: one block per job.
    for lane in lanes {
      let label: String
      let attribute: String
      switch lane {
      case .task(let task):
        label = run.trace.label(ofTask: task)
        attribute = "data-task"
      case .folded:
        label = "\(foldedCount) more tasks (folded)"
        attribute = "data-folded"
      case .noTask:
        label = "jobs of no task (actor drains)"
        attribute = "data-task"
      case .actor, .mainActor:
        continue
      }
      laneStart(lane, label: label, attribute: attribute)
      var previous: [Int: Trace.Event] = [:]
      for event in ran where self.lane(of: event, drainSteps: drainSteps, laneOfTask: lane(ofTask:)) == lane {
        guard case .ran(let source) = event.kind else { continue }
        let (color, place) =
          switch source {
          case .global: ("#4a7bd0", "the global executor")
          case .main: ("#9b59b6", "the main actor")
          case .timer: ("#2e9e6a", "a timer")
          }
        if let before = previous[event.task], case .ran(let beforeSource) = before.kind, beforeSource != source {
          out +=
            "<line x1=\"\(x(before.step) + stepWidth / 2)\" y1=\"\(y(lane) + 13)\" x2=\"\(x(event.step) + stepWidth / 2)\" "
            + "y2=\"\(y(lane) + 13)\" stroke=\"#555\" stroke-dasharray=\"3,2\"/>"
        }
        let taskLabel = event.task == 0 ? label : run.trace.label(ofTask: event.task)
        var hover = "step \(event.step), \(taskLabel): ran on \(place) at \(event.virtualTime) ns"
        for note in stepNotes[event.step] ?? [] { hover += "\n" + note }
        out +=
          "<rect class=\"job\" x=\"\(x(event.step))\" y=\"\(y(lane) + 5)\" width=\"\(max(stepWidth - 1, 1))\" height=\"16\" "
          + "fill=\"\(color)\"><title>\(Self.escape(hover))</title></rect>"
        previous[event.task] = event
      }
      out += "\n</g>\n"
    }
    for preemption in preemptions where preemption.step >= firstStep {
      let cx = x(preemption.step) + stepWidth / 2
      let from = y(lane(ofTask: preemption.from)) + 13
      let to = y(lane(ofTask: preemption.to)) + 13
      out +=
        "<g class=\"preemption\"><line x1=\"\(cx)\" y1=\"\(from)\" x2=\"\(cx)\" y2=\"\(to)\" "
        + "stroke=\"#d0342c\" stroke-width=\"2\"/><circle cx=\"\(cx)\" cy=\"\(from)\" r=\"4\" "
        + "fill=\"#d0342c\"><title>\(Self.escape("preemption at step \(preemption.step): \(run.trace.label(ofTask: preemption.from)) could have gone on; \(run.trace.label(ofTask: preemption.to)) ran"))</title></circle></g>\n"
    }
    for failure in failures where failure.step >= firstStep - 1 {
      let cx = x(max(failure.step, firstStep)) + stepWidth / 2
      let cy = y(lane(ofTask: failure.task)) + 13
      out +=
        "<g class=\"failure\"><line x1=\"\(cx)\" y1=\"\(top)\" x2=\"\(cx)\" y2=\"\(height - 8)\" stroke=\"#d0342c\" "
        + "stroke-dasharray=\"4,3\"/><path d=\"M \(cx) \(cy - 8) L \(cx + 8) \(cy) L \(cx) \(cy + 8) L \(cx - 8) \(cy) Z\" "
        + "fill=\"#d0342c\"><title>\(Self.escape("failure at step \(failure.step): \(failure.text)"))</title></path></g>\n"
    }
    out += "</svg>"
    return out
  }

  /// The lane a job is drawn on: a drain with turns is drawn on its actor's lane instead.
  private func lane(of event: Trace.Event, drainSteps: Set<Int>, laneOfTask: (Int) -> Lane) -> Lane? {
    if event.task == 0 && drainSteps.contains(event.step) { return nil }
    return laneOfTask(event.task)
  }

  /// A colour for a task, far from its neighbours' (golden-angle hues).
  static func color(ofTask task: Int) -> String {
    let hue = (task * 137) % 360
    return "hsl(\(hue), 62%, 42%)"
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
