extension Duration {
  /// The duration in seconds, as a `Double` (for Foundation and Dispatch, which count in them).
  package var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
