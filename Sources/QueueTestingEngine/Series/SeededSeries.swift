/// Random, PCT and portfolio series: schedule `index` runs a strategy of its own seed, derived
/// from the series' seed (see ``ScheduleSeries/scheduleSeed(_:_:)``).
struct SeededSeries: SeriesFamily {
  var isSeeded: Bool { true }
  var cancels: Bool { true }

  func runSchedules(
    of series: ScheduleSeries, expecting length: RunLength,
    _ run: (any ScheduleStrategy & Sendable, RunLength) throws -> (result: RunResult, keepGoing: Bool)
  ) rethrows -> Bool? {
    // PCT places its change points within the choices it expects, learned from the runs before
    // (of any member, in a portfolio).
    var length = length
    let indices = series.onlyIndex.map { ($0..<$0 + 1).clamped(to: 0..<series.count) } ?? 0..<series.count
    for index in indices {
      let (result, keepGoing) = try run(strategy(at: index, of: series, expectedChoices: length.choices), length)
      length.learn(from: result)
      if !keepGoing { break }
    }
    return nil
  }

  /// The strategy of schedule `index` of `series`.
  func strategy(at index: Int, of series: ScheduleSeries, expectedChoices: Int) -> any ScheduleStrategy & Sendable {
    let scheduleSeed = ScheduleSeries.scheduleSeed(series.seed, index)
    let kind = series.kind
    switch kind == .portfolio ? ScheduleSeries.portfolioMember(at: index) : kind {
    case .pct(let depth): return PCTStrategy(seed: scheduleSeed, depth: depth, expectedSteps: expectedChoices)
    case .random where kind == .portfolio: return PortfolioRandomStrategy(seed: scheduleSeed)
    default: return SeededRandomStrategy(seed: scheduleSeed)
    }
  }
}
