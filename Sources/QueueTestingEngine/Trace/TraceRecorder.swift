/// Records marks from code under test into the trace of the active controlled run, where the
/// ordering oracles and the column view can see them next to the queues' own events.
///
/// ```swift
/// TraceRecorder.mark("started t1")
/// ```
///
/// Outside a controlled run (or from a thread that is not the run's), a mark is dropped.
public enum TraceRecorder {
  /// Appends `label` to the active run's trace as a mark of the current task.
  /// - Returns: Whether the mark was recorded.
  @discardableResult
  public static func mark(_ label: String) -> Bool {
    #if compiler(>=6.3)
      ControlledExecutor.markActiveRun(label)
    #else
      false
    #endif
  }
}
