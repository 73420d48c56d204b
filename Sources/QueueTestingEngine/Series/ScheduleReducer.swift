/// Reduces a failing schedule to fewer preemptions (see ``Preemption``) that still fail the
/// same way, within a budget, so that a failure shows the few switches that matter.
///
/// It first tries the run with no preemption at all, then each of the failing run's preemptions
/// alone, then takes them out one at a time, last first, keeping each removal only while the run
/// still fails the same way. Every candidate is a real run, judged by the caller: the result is a run that failed the
/// same way (or the failing run itself), and its ``Schedule`` replays it. The result has the
/// fewest preemptions this search found, not necessarily the fewest that exist.
public struct ScheduleReducer: Sendable, Equatable {
  /// The most candidate runs.
  public var maxRuns: Int
  /// The most real time the reduction may take, checked between runs.
  public var timeLimit: Duration

  /// Whether it tries each of the failing run's preemptions alone before taking them out one at
  /// a time. Always true but in the test that shows what the step finds (a mutation check).
  let triesEachPreemptionAlone: Bool

  /// Creates a reducer; by default at most 100 runs and 5 seconds.
  public init(maxRuns: Int = 100, timeLimit: Duration = .seconds(5)) {
    self.init(maxRuns: maxRuns, timeLimit: timeLimit, triesEachPreemptionAlone: true)
  }

  /// A reducer that may leave out trying each preemption alone: for the mutation check.
  package init(maxRuns: Int, timeLimit: Duration, triesEachPreemptionAlone: Bool) {
    self.maxRuns = maxRuns
    self.timeLimit = timeLimit
    self.triesEachPreemptionAlone = triesEachPreemptionAlone
  }

  /// What the reduction found.
  public struct Result: Sendable {
    /// The reduced run (the failing run itself when nothing fewer failed the same way).
    public var run: RunResult
    /// Its preemptions, in order.
    public var preemptions: [Preemption]
    /// How many preemptions the failing run had.
    public var originalPreemptions: Int
    /// Runs made: the recording run of the failing schedule, the candidates, and the result's
    /// replay.
    public var runs: Int
    /// Whether the budget ran out before every removal was tried.
    public var budgetExhausted: Bool
  }

  /// Reduces the failing run `failing`.
  ///
  /// - Parameter runAndJudge: Runs the body under a strategy and says whether the run failed the
  ///   same way as `failing` did (false for a pass or another failure).
  /// - Returns: nil when the failing run's schedule cannot be reduced here: it cancelled tasks or
  ///   admitted work from outside the harness (a candidate would not make those choices), or the
  ///   recording run of its schedule did not fail the same way, or the result's replay did not.
  ///   The last run it makes is that replay of the result: a caller that notes what each run does
  ///   (where its failures were recorded) holds the result's notes afterwards.
  public func reduce(
    _ failing: RunResult, runAndJudge: (any ScheduleStrategy & Sendable) -> (RunResult, Bool)
  ) -> Result? {
    let schedule = failing.schedule
    guard schedule.cancellations.isEmpty, schedule.admissions.isEmpty, maxRuns > 0 else { return nil }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeLimit)
    var runs = 0
    // Runs a recorded candidate; its run, its preemptions, and whether it failed the same way.
    func attempt(_ strategy: some ScheduleStrategy & Sendable) -> (RunResult, [Preemption], Bool, [Int]) {
      runs += 1
      let recorder = PreemptionRecorder(strategy)
      let (run, same) = runAndJudge(recorder)
      return (run, recorder.preemptions, same, recorder.chosenTasks)
    }
    // The result is what a replay line will run: it must fail the same way, to the same trace.
    func verified(_ result: Result) -> Result? {
      var result = result
      let (again, _, same, _) = attempt(ReplayStrategy(result.run.schedule))
      result.runs = runs
      return same && again.trace.hash == result.run.trace.hash ? result : nil
    }
    let (original, originalPreemptions, reproduced, guide) = attempt(ReplayStrategy(schedule))
    guard reproduced, original.trace.hash == failing.trace.hash else { return nil }
    var best = Result(
      run: original, preemptions: originalPreemptions, originalPreemptions: originalPreemptions.count, runs: runs,
      budgetExhausted: false)
    guard !originalPreemptions.isEmpty else { return verified(best) }
    func withinBudget() -> Bool { runs < maxRuns && clock.now < deadline }
    // Keeps a candidate's run if it failed the same way with fewer preemptions than the best.
    func keepIfFewer(_ candidate: (run: RunResult, preemptions: [Preemption], same: Bool, chosen: [Int])) -> Bool {
      guard candidate.same, candidate.preemptions.count < best.preemptions.count else { return false }
      best.run = candidate.run
      best.preemptions = candidate.preemptions
      return true
    }
    func tryKeeping(_ kept: Set<Int>) -> Bool {
      keepIfFewer(
        attempt(PreemptionGuidedStrategy(guide: guide, keptPreemptions: kept, timerDelays: schedule.timerDelays)))
    }
    if withinBudget(), tryKeeping([]) { return verified(best) }
    // Then one preemption, at each point of the run that has none in turn (a search of bound
    // one, as Loom and Shuttle begin theirs): a bug that one switch brings out is reduced to one.
    // At most half the budget goes here, so that a bug that needs more keeps the steps below.
    if triesEachPreemptionAlone, originalPreemptions.count > 1 {
      var point = 0
      while withinBudget(), point < maxRuns / 2 {
        let candidate = attempt(SinglePreemptionStrategy(point: point, timerDelays: schedule.timerDelays))
        // No preemption made: the run had fewer points than this.
        if candidate.1.isEmpty { break }
        if keepIfFewer(candidate) { return verified(best) }
        point += 1
      }
    }
    // Then each preemption alone, in order (the search by increasing bound that Loom and Shuttle
    // make, over the failing run's own preemptions): a bug that needs one switch is reduced to
    // one, whichever of many it is. Taking preemptions out one at a time cannot promise that:
    // without a later one the run may take a path on which an earlier one no longer fails.
    if triesEachPreemptionAlone, originalPreemptions.count > 1 {
      for choice in originalPreemptions.map(\.choice) {
        guard withinBudget() else {
          best.budgetExhausted = true
          return verified(best)
        }
        if tryKeeping([choice]) { return verified(best) }
      }
    }
    var kept = Set(originalPreemptions.map(\.choice))
    for choice in originalPreemptions.map(\.choice).reversed() {
      guard withinBudget() else {
        best.budgetExhausted = true
        break
      }
      var fewer = kept
      fewer.remove(choice)
      if tryKeeping(fewer) { kept = fewer }
    }
    return verified(best)
  }
}
