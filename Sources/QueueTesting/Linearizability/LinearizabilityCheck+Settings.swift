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
          seed = try ControlledScheduling.seed(text)
        }
        forScheduling[ControlledScheduling.seedVariable] = nil
        forScheduling[ControlledScheduling.scheduleIndexVariable] = nil
        // The budget counts scenarios here: each scenario's series keeps its own budget, unless
        // the budget is off.
        forScheduling[ControlledScheduling.budgetVariable] = nil
        let setting = try environment[ControlledScheduling.budgetVariable].flatMap(
          ControlledScheduling.BudgetSetting.init)
        if let setting {
          switch setting {
          case .off: break
          case .factor(let factor):
            scenarios = scenarios.multipliedReportingOverflow(by: factor).overflow ? .max : scenarios * factor
          case .seconds(let value):
            seconds = value
            scenarios = .max
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
        if setting == .off { scheduling.applyBudgetVariable(.off) }
      }
    }
  }
#endif
