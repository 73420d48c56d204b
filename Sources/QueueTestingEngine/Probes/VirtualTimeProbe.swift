internal import CQueueTestingRuntime

/// Clock reads in a run's jobs that follow the run's virtual time: the real time plus what the
/// run skipped (see `VirtualTimeReads.c`).
enum VirtualTimeProbe {
  /// Whether clock reads reach the harness's definitions in this process (Linux, not under the
  /// thread sanitizer).
  static var isRead: Bool { qt_virtual_time_is_read() }

  /// A run begins: nothing skipped yet.
  static func begin() {
    qt_virtual_time_begin()
  }

  /// Turns on (or off) reads that follow virtual time for the calling thread: on while one of
  /// the run's jobs runs.
  @inline(__always)
  static func readsFollow(_ on: Bool) {
    qt_virtual_time_reads(on)
  }

  /// Virtual time jumped by `jump` nanoseconds after the driver waited `paced` nanoseconds of
  /// real time for it: what the wait did not cover is skipped.
  static func jumped(by jump: UInt64, afterWaiting paced: UInt64) {
    qt_virtual_time_advance(jump, paced)
  }

  /// The real monotonic time in nanoseconds, whatever the calling thread's reads follow.
  @inline(__always)
  static func realNanoseconds() -> UInt64 {
    qt_real_monotonic_nanoseconds()
  }
}
