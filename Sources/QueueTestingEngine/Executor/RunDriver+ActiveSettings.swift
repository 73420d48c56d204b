#if compiler(>=6.3)
  // What the active run's jobs ask of its settings, on its driver thread.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// Whether the queues' tasks take the harness's task-executor preference: on the active run's
    /// driver thread, unless its model leaves that out (see ``RuntimeModel``).
    var queueTasksPreferHarness: Bool {
      guard enterDriverState() else { return false }
      defer { leaveDriverState() }
      return activeRun?.settings.model.queueTasksPreferHarness ?? false
    }

    /// Whether another tool's global-enqueue hook gets a job enqueued now: unless the active
    /// run's model leaves that out, on its driver thread (see ``RuntimeModel``).
    var honoursGlobalHook: Bool {
      guard enterDriverState() else { return true }
      defer { leaveDriverState() }
      return activeRun?.settings.model.honoursOtherToolsGlobalHook ?? true
    }

    /// Nanoseconds by which the sleep the calling task measures comes out short (see
    /// ``RunSettings/measurementStall``): 0 but in the test that shows a replay ignores it.
    func measurementStall() -> UInt64 {
      guard enterDriverState() else { return 0 }
      defer { leaveDriverState() }
      return activeRun?.settings.measurementStall?() ?? 0
    }
  }
#endif
