/// Random, PCT and portfolio series: schedule `index` runs a strategy of its own seed, derived
/// from the series' seed (see ``ScheduleSeries/scheduleSeed(_:_:)``).
struct SeededSeries: SeriesFamily {
  var isSeeded: Bool { true }
  var cancels: Bool { true }

  func runSchedules(
    of series: ScheduleSeries, _ run: (any ScheduleStrategy & Sendable) throws -> (result: RunResult, keepGoing: Bool)
  ) rethrows -> Bool? {
    // PCT places its change points within the steps it expects; it learns them from the last
    // run (of any member, in a portfolio) that stayed unfair to its end: a run that PCT ended
    // with fair choices was long only because it was unfair (a livelock), and learning from
    // it would make every later run longer still.
    var expectedSteps = 100
    let indices = series.onlyIndex.map { ($0..<$0 + 1).clamped(to: 0..<series.count) } ?? 0..<series.count
    for index in indices {
      let (result, keepGoing) = try run(strategy(at: index, of: series, expectedSteps: expectedSteps))
      if result.fairFromChoice == nil { expectedSteps = max(result.schedule.choices.count, 1) }
      if !keepGoing { break }
    }
    return nil
  }

  /// The strategy of schedule `index` of `series`.
  func strategy(at index: Int, of series: ScheduleSeries, expectedSteps: Int) -> any ScheduleStrategy & Sendable {
    let scheduleSeed = ScheduleSeries.scheduleSeed(series.seed, index)
    let kind = series.kind
    switch kind == .portfolio ? ScheduleSeries.portfolioMember(at: index) : kind {
    case .pct(let depth): return PCTStrategy(seed: scheduleSeed, depth: depth, expectedSteps: expectedSteps)
    case .random where kind == .portfolio: return PortfolioRandomStrategy(seed: scheduleSeed)
    default: return SeededRandomStrategy(seed: scheduleSeed)
    }
  }
}
