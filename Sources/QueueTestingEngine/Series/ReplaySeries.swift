/// A replay: one run that plays back its schedule (``ReplayStrategy``), cancellations included.
struct ReplaySeries: SeriesFamily {
  /// The schedule to play back.
  var schedule: Schedule

  var isSeeded: Bool { false }
  var cancels: Bool { true }

  func runSchedules(
    of series: ScheduleSeries, _ run: (any ScheduleStrategy & Sendable) throws -> (result: RunResult, keepGoing: Bool)
  ) rethrows -> Bool? {
    _ = try run(ReplayStrategy(schedule))
    return nil
  }
}
