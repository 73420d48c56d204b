/// Reads a time budget such as `30s`, `10m`, `1h` or `500ms` (a plain number is seconds).
enum DurationText {
  /// Seconds, or nil when `text` is not a positive duration.
  static func seconds(_ text: String) -> Double? {
    let digits = text.prefix { $0.isNumber || $0 == "." }
    guard let value = Double(digits), value > 0 else { return nil }
    let scale: Double
    switch text.dropFirst(digits.count) {
    case "", "s": scale = 1
    case "ms": scale = 0.001
    case "m": scale = 60
    case "h": scale = 3600
    default: return nil
    }
    return value * scale
  }

  /// For example "9m 12s", "41s".
  static func format(seconds: Double) -> String {
    let whole = Int(seconds.rounded(.up))
    if whole >= 3600 { return "\(whole / 3600)h \(whole % 3600 / 60)m" }
    if whole >= 60 { return "\(whole / 60)m \(whole % 60)s" }
    return "\(whole)s"
  }
}
