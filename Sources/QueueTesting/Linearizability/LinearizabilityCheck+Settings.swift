#if compiler(>=6.3)
  extension LinearizabilityCheck {
    /// A check's settings as the environment adjusts them (see ``run(environment:)``).
    struct Settings: Sendable {
      /// The seed the scenarios follow from.
      var seed: UInt64
      /// How many scenarios to run.
      var scenarios: Int
      /// A time budget for the whole check, in seconds.
      var seconds: Double?
      /// How each scenario runs; its series' seed is the check's, mixed per scenario.
      var scheduling: ControlledScheduling
      /// A rerun line's scenario: its number and the steps that made it small.
      var rerun: Rerun?

      struct Rerun: Sendable {
        var number: Int
        var edits: [ScenarioEdit]
      }

      init(environment: [String: String], check: LinearizabilityCheck) throws(ControlledSchedulingError) {
        seed = check.seed
        scenarios = check.scenarios
        var forScheduling = environment
        if let text = environment[ControlledScheduling.seedVariable] {
          guard let value = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
            throw ControlledSchedulingError(
              message: "\(ControlledScheduling.seedVariable)=\(text): expected a decimal number from 0 to \(UInt64.max)"
            )
          }
          seed = value
        }
        forScheduling[ControlledScheduling.seedVariable] = nil
        forScheduling[ControlledScheduling.scheduleIndexVariable] = nil
        // The budget counts scenarios here: each scenario's series keeps its own budget.
        forScheduling[ControlledScheduling.budgetVariable] = nil
        if let text = environment[ControlledScheduling.budgetVariable],
          case let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased(), !trimmed.isEmpty
        {
          if trimmed == "off" {
            forScheduling[ControlledScheduling.budgetVariable] = "off"
          } else if trimmed.hasSuffix("x"), let factor = Int(trimmed.dropLast()), (1...1_000).contains(factor) {
            scenarios = scenarios.multipliedReportingOverflow(by: factor).overflow ? .max : scenarios * factor
          } else if trimmed.hasSuffix("s"), let value = Double(trimmed.dropLast()), value > 0, value < 86_400 {
            seconds = value
            scenarios = .max
          } else {
            throw ControlledSchedulingError(
              message:
                "\(ControlledScheduling.budgetVariable)=\(text): expected a factor such as 10x, a number of seconds such as 30s, or off"
            )
          }
        }
        if let text = environment[LinearizabilityCheck.scenarioVariable] {
          let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", maxSplits: 1)
          guard let first = parts.first, let number = Int(first), number >= 0,
            let edits = ScenarioEdit.edits(parsing: parts.count > 1 ? parts[1] : "")
          else {
            throw ControlledSchedulingError(
              message: """
                \(LinearizabilityCheck.scenarioVariable)=\(text): expected a scenario number (from 1; 0 for one \
                written by hand), then optionally / and the edits a failure's rerun line gives (such as 3/p1.0-,e)
                """)
          }
          rerun = Rerun(number: number, edits: edits)
        } else {
          // A schedule to replay belongs to one scenario: without its number it means nothing here.
          forScheduling[ControlledScheduling.scheduleVariable] = nil
          forScheduling[ControlledScheduling.scheduleFileVariable] = nil
        }
        scheduling = try check.scheduling.resolved(environment: forScheduling)
        scheduling.series.seed = seed
      }
    }
  }
#endif
