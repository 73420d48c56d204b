/// How long a series expects its next run to be: the one rule by which a seeded series learns
/// the length its strategies spread their random events over (PCT's change points over choices,
/// ``CancellingStrategy``'s cancellations over steps).
///
/// It is the length of the last run that stayed unfair to its end (100 steps and choices before
/// any): a run that a strategy ended with fair choices (``RunResult/fairFromChoice``) was long
/// only because it was unfair, a livelock, and learning from it would make every later run
/// longer still.
package struct RunLength: Sendable, Equatable {
  /// The steps (jobs run) of the run learned from.
  package private(set) var steps: Int
  /// The choices (steps with more than one runnable job) of the run learned from.
  package private(set) var choices: Int

  /// The length expected before any run: 100 steps and choices.
  package init() {
    steps = 100
    choices = 100
  }

  /// Learns the length of `result`, unless it ended with fair choices.
  package mutating func learn(from result: RunResult) {
    guard result.fairFromChoice == nil else { return }
    steps = max(result.steps, 1)
    choices = max(result.schedule.choices.count, 1)
  }
}
