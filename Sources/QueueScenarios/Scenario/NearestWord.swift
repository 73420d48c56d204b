/// The known word a mistyped one was most likely meant to be, for "did you mean …?" in errors
/// of scenario files and of `queue-fuzz`'s command line.
package enum NearestWord {
  /// The word of `candidates` closest to `word` by edits (an insertion, a deletion, a change, or
  /// two neighbours swapped: `rnu` is one edit from `run`), when it is close enough to be a
  /// typo: at most one edit for words of up to four letters, two for longer ones, and fewer
  /// edits than letters. Nil when none is, or when two are equally close.
  package static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
    let typed = Array(word.lowercased())
    let allowed = typed.count <= 4 ? 1 : 2
    var best: (word: String, distance: Int)?
    var tied = false
    for candidate in candidates where candidate != word {
      let distance = editDistance(typed, Array(candidate.lowercased()))
      guard distance <= allowed, distance < typed.count else { continue }
      if let current = best, current.distance == distance {
        tied = true
      } else if best == nil || distance < best!.distance {
        best = (candidate, distance)
        tied = false
      }
    }
    return tied ? nil : best?.word
  }

  /// " (did you mean 'X'?)" for the closest candidate, or "" when there is none.
  package static func suggestion(for word: String, among candidates: some Sequence<String>) -> String {
    closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// The optimal string alignment distance: Levenshtein's, with a swap of two neighbouring
  /// characters counted as one edit.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
