internal import CQueueTestingRuntime

/// What the runtime reports about continuations dropped without a resume, while a run goes on
/// (see `ContinuationMisuse.c`).
enum LeakedContinuationProbe {
  /// Starts noting (with `watching` false: stops), forgetting earlier notes; `tell` is called on
  /// the reporting thread for each message.
  static func start(watching: Bool, tell: @convention(c) () -> Void) {
    qt_watch_leaked_continuations(watching, tell)
  }

  /// Stops noting.
  static func stop() {
    qt_watch_leaked_continuations(false, nil)
  }

  /// The messages noted since noting began, one per element; nil when there were none.
  static func messages() -> [String]? {
    // Asked whenever the driver finds nothing runnable and as it waits: nearly always none.
    guard qt_leaked_continuation_count() > 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = qt_leaked_continuation_messages(&buffer, Int32(buffer.count))
    guard count > 0 else { return nil }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }
}
