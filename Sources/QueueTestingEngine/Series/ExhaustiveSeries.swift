/// An exhaustive series: an ``ExhaustiveSearch`` with its delay bound, the series' count its
/// budget of schedules.
struct ExhaustiveSeries: SeriesFamily {
  /// The most delays per schedule (nil: none).
  var delayBound: Int?

  var isSeeded: Bool { false }
  var cancels: Bool { false }

  func runSchedules(
    of series: ScheduleSeries, expecting length: RunLength,
    _ run: (any ScheduleStrategy & Sendable, RunLength) throws -> (result: RunResult, keepGoing: Bool)
  ) rethrows -> Bool? {
    var search = ExhaustiveSearch(delayBound: delayBound, budget: series.count)
    var length = length
    while let strategy = search.nextStrategy() {
      let (result, keepGoing) = try run(strategy, length)
      search.record(result)
      length.learn(from: result)
      if !keepGoing { break }
    }
    return search.isExhausted
  }
}
