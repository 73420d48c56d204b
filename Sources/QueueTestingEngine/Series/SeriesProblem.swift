/// What a ``SeriesRunner`` needs to know of how a run failed: a test's ``ScheduleProblem``, or a
/// scenario's broken guarantees in queue-fuzz.
package protocol SeriesProblem: Equatable, Sendable {
  /// What failed, for a person; its first line titles the failure's picture.
  var summary: String { get }
  /// Whether another run can follow one that failed this way in the same process (a reduction's
  /// candidates are such runs).
  var allowsAnotherRun: Bool { get }
  /// What makes this failure the failure it is, recorded at `locations` (see
  /// ``FailureIdentity``).
  func identity(recordedAt locations: [String]) -> FailureIdentity
}
