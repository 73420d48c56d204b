#if compiler(>=6.3)
  internal import CQueueTestingRuntime

  /// The runtime's executor hooks and the executor a thread runs on (see `ExecutorHooks.c` and
  /// `CurrentExecutor.c`).
  @available(ExecutorHooks 1.0, *)
  enum ExecutorProbe {
    /// Finds the runtime's hooks, with `unhooked` the function that enqueues a job as if no hook
    /// were set. Once, as the harness installs its executors.
    static func installHooks(unhooked: @convention(c) (UnsafeMutableRawPointer) -> Void) {
      qt_install_executor_hooks(unhooked)
    }

    /// Whether another tool set the global-enqueue hook (and the calling thread is not inside it):
    /// a check at every global enqueue.
    @inline(__always)
    static var globalHookIsSet: Bool { qt_global_hook_is_set() }

    /// Hands `job` to the global-enqueue hook another tool set, if one is set (true).
    static func enqueueThroughGlobalHook(_ job: UnownedJob) -> Bool {
      qt_enqueue_through_global_hook(unsafeBitCast(job, to: UnsafeMutableRawPointer.self))
    }

    /// The name of a hook the harness cannot honour that is set now, if any.
    @inline(__always)
    static var unhonouredHook: String? {
      qt_unhonoured_executor_hook().map { String(cString: $0) }
    }

    /// The identity of the serial executor the calling thread runs a job on (0: the generic one).
    static var currentSerialExecutor: UInt { UInt(qt_current_serial_executor_identity()) }
  }
#endif
