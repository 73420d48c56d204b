/// What makes two failures the same failure: the kind of problem, and where it was recorded (the
/// expectations that failed, the error thrown, the wake-ups that never came, the guarantees
/// broken). The one notion of "fails the same way" in the harness: a reduction keeps a candidate
/// run only if its identity equals the failing run's (see ``SeriesRunner``), and the scenario
/// shrinker keeps a reduced schedule the same way.
///
/// What a run measured (its steps, a deadlock's report, a stuck job's time) is not part of it:
/// a reduced run fails the same way with fewer steps. Each ``SeriesProblem`` says what its
/// identity is made of.
package struct FailureIdentity: Hashable, Sendable {
  private let words: [String]

  /// An identity made of `words` (the kind of problem first).
  package init(_ words: [String]) {
    self.words = words
  }

  /// Whether a failure of this identity fails at least the way `other` says: every word of
  /// `other` is one of its words (a scenario that breaks two guarantees includes a failure
  /// that breaks one of them).
  package func includes(_ other: FailureIdentity) -> Bool {
    other.words.allSatisfy(words.contains)
  }
}
