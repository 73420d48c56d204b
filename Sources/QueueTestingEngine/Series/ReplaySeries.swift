/// A replay: one run that plays back its schedule (``ReplayStrategy``), cancellations included.
struct ReplaySeries: SeriesFamily {
  /// The schedule to play back.
  var schedule: Schedule

  var isSeeded: Bool { false }
  var cancels: Bool { true }

  func runSchedules(
    of series: ScheduleSeries, expecting length: RunLength,
    _ run: (any ScheduleStrategy & Sendable, RunLength) throws -> (result: RunResult, keepGoing: Bool)
  ) rethrows -> Bool? {
    _ = try run(ReplayStrategy(schedule), length)
    return nil
  }
}
