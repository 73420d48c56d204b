#if compiler(>=6.3)
  // What the active run's jobs ask of its settings, on its driver thread.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// Whether the queues' tasks take the harness's task-executor preference: on the active run's
    /// driver thread, unless its model leaves that out (see ``RuntimeModel``).
    var queueTasksPreferHarness: Bool {
      activeSettings(else: false) { $0.model.queueTasksPreferHarness }
    }

    /// Whether another tool's global-enqueue hook gets a job enqueued now: unless the active
    /// run's model leaves that out, on its driver thread (see ``RuntimeModel``).
    var honoursGlobalHook: Bool {
      activeSettings(else: true) { $0.model.honoursOtherToolsGlobalHook }
    }

    /// Nanoseconds by which the sleep the calling task measures comes out short (see
    /// ``RunSettings/measurementStall``): 0 but in the test that shows a replay ignores it.
    func measurementStall() -> UInt64 {
      activeSettings(else: 0) { $0.measurementStall?() ?? 0 }
    }

    /// `read` of the active run's settings when the calling thread drives it; `outside` elsewhere
    /// (another thread, or no run).
    private func activeSettings<Value>(else outside: Value, _ read: (RunSettings) -> Value) -> Value {
      guard enterDriverState() else { return outside }
      defer { leaveDriverState() }
      return activeRun.map { read($0.settings) } ?? outside
    }
  }
#endif
