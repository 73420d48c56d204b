/// How the schedules of one kind of ``ScheduleSeries`` start: each family owns how its n-th
/// schedule's strategy is made, and says what the series runner may do with its runs. A new kind
/// of series is a family in a file of its own, registered once, in `ScheduleSeries.Kind.family`.
package protocol SeriesFamily {
  /// Whether the series is drawn from its seed: it stops on a ``ScheduleBudget``, may choose
  /// cancellations between jobs, a seed variable replaces its seed, and one of its schedules can
  /// run alone, as the whole series would have run it.
  var isSeeded: Bool { get }

  /// Whether its runs may cancel the series' targets (``CancellationTargets``): a seeded series
  /// chooses when, a replay repeats its schedule's; an exhaustive search explores none.
  var cancels: Bool { get }

  /// Calls `run` with the strategy of each schedule of `series` in turn, and the length it
  /// expects that run to have (learned by ``RunLength/learn(from:)`` from the runs so far, from
  /// `length` before the first), until `run` returns false for a run (a failure) or the series
  /// ends. Returns, for a series that can run out of schedules to try, whether it did (see
  /// ``ExhaustiveSearch/isExhausted``); nil otherwise.
  func runSchedules(
    of series: ScheduleSeries, expecting length: RunLength,
    _ run: (any ScheduleStrategy & Sendable, RunLength) throws -> (result: RunResult, keepGoing: Bool)
  ) rethrows -> Bool?
}

extension ScheduleSeries.Kind {
  /// The family that runs a series of this kind: the one place each kind is registered.
  package var family: any SeriesFamily {
    switch self {
    case .random, .pct, .portfolio: SeededSeries()
    case .exhaustive(let bound): ExhaustiveSeries(delayBound: bound)
    case .replay(let schedule): ReplaySeries(schedule: schedule)
    }
  }
}
