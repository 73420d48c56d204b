import AsyncQueue

/// Records labels from code under test in the order they happen, for ``expectOrder(_:_:_:fileID:filePath:line:column:)``.
///
/// ```swift
/// let recorder = OrderRecorder()
/// queue.enqueue { recorder.mark("first") }
/// queue.enqueue { recorder.mark("second") }
/// await queue.enqueueAndWait {}
/// expectOrder(recorder, ["first", "second"])
/// ```
///
/// Safe to call from any thread. Under a controlled run each mark also goes into the run's trace
/// (``TraceRecorder/mark(_:)``), so it shows in the per-task view of a failure.
public final class OrderRecorder: Sendable {
  private let storage = LockedState<[String]>([])

  /// Creates an empty recorder.
  public init() {}

  /// Appends `label`.
  public func mark(_ label: String) {
    storage.withLock { $0.append(label) }
    TraceRecorder.mark(label)
  }

  /// The labels so far, oldest first.
  public var marks: [String] {
    storage.withLock { $0 }
  }
}
