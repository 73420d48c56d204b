/// Reads a time budget such as `30s`, `10m`, `1h` or `500ms` (a plain number is seconds).
enum DurationText {
  /// The longest duration accepted: a year. Longer sessions are surely typos, and keeping the
  /// number small keeps every later computation with it (deadlines, the status line) in range.
  static let longestSeconds: Double = 365 * 24 * 3600

  /// Seconds, or nil when `text` is not a positive duration of at most ``longestSeconds``.
  static func seconds(_ text: String) -> Double? {
    let digits = text.prefix { $0.isNumber || $0 == "." }
    guard let value = Double(digits), value > 0, value.isFinite else { return nil }
    let scale: Double
    switch text.dropFirst(digits.count) {
    case "", "s": scale = 1
    case "ms": scale = 0.001
    case "m": scale = 60
    case "h": scale = 3600
    default: return nil
    }
    let seconds = value * scale
    return seconds <= longestSeconds ? seconds : nil
  }

  /// For example "9m 12s", "41s".
  static func format(seconds: Double) -> String {
    // Saturates rather than trapping on a value no session reaches.
    let whole = seconds.isFinite ? Int(min(max(seconds, 0), longestSeconds).rounded(.up)) : 0
    if whole >= 3600 { return "\(whole / 3600)h \(whole % 3600 / 60)m" }
    if whole >= 60 { return "\(whole / 60)m \(whole % 60)s" }
    return "\(whole)s"
  }
}
