internal import CQueueTestingRuntime

/// What a thread of the process does, for telling a job that overstays its slice from a driver
/// that waits, and for naming what a stuck job's thread is blocked in (see `ThreadStack.c` and
/// `ThreadActivity.c`).
enum ThreadProbe {
  /// Lets the calling thread's stack be sampled; whether sampling was blocked before.
  static func allowStackSamples() -> Bool { qt_allow_stack_samples() }

  /// Blocks sampling again on the calling thread if it was before.
  static func restoreStackSamples(wasBlocked: Bool) { qt_restore_stack_samples(wasBlocked) }

  /// The calling thread's kernel id (Linux), 0 elsewhere.
  static var currentKernelThread: Int { qt_current_kernel_thread() }

  /// The CPU time `thread` (a `pthread_t`) used, in nanoseconds; nil where it cannot be read.
  static func cpuNanoseconds(of thread: UInt) -> UInt64? {
    let cpu = qt_thread_cpu_nanoseconds(thread)
    return cpu == .max ? nil : cpu
  }

  /// Whether the kernel thread waits now (sleeping, or blocked in I/O); nil where that cannot be
  /// read.
  static func isWaiting(kernelThread: Int) -> Bool? {
    switch qt_kernel_thread_is_waiting(kernelThread) {
    case 1: true
    case 0: false
    default: nil
    }
  }

  /// The names of the functions on `thread`'s stack, innermost first (at most `capacity`),
  /// waiting up to `timeoutMilliseconds` for the thread to record them.
  static func stackSymbols(of thread: UInt, capacity: Int, timeoutMilliseconds: Int32) -> [String] {
    var names = [UnsafePointer<CChar>?](repeating: nil, count: capacity)
    let count = names.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafePointer<CChar>.self) { rebound in
        Int(qt_thread_stack_symbols(thread, rebound.baseAddress!, Int32(rebound.count), timeoutMilliseconds))
      }
    }
    return names.prefix(count).compactMap { $0.map { String(cString: $0) } }
  }
}
