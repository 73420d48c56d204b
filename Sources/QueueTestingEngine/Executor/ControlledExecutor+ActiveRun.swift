#if compiler(>=6.3)
  // The active controlled run as code at the package's floor sees it: gates, named continuations,
  // trace marks and the virtual clock work on every OS the package supports, while a controlled
  // run needs the executor-factory hooks of macOS 26.4 / iOS 26.4 / watchOS 26.4 / tvOS 26.4 /
  // visionOS 26.4. On an older OS no run can be active, so each answers "no run" (and records
  // nothing); that is the truth there, not a fallback that hides a run.
  extension ControlledExecutor {
    /// The active run's virtual time in nanoseconds; nil outside a run.
    static var activeRunVirtualNow: UInt64? {
      guard #available(ExecutorHooks 1.0, *) else { return nil }
      return RunDriver.shared.virtualNow
    }

    /// Records that the current task of the active run starts waiting at `label`; whether it did.
    static func beginNamedWait(_ label: String) -> Bool {
      guard #available(ExecutorHooks 1.0, *) else { return false }
      return RunDriver.shared.beginNamedWait(label)
    }

    /// Ends the wait a `true` ``beginNamedWait(_:)`` recorded.
    static func endNamedWait() {
      guard #available(ExecutorHooks 1.0, *) else { return }
      RunDriver.shared.endNamedWait()
    }

    /// Declares an outside wake-up for the active run; false when no run is active here.
    static func tryExpectOutsideWakeUp(_ label: String) -> Bool {
      guard #available(ExecutorHooks 1.0, *) else { return false }
      return RunDriver.shared.expectOutsideWakeUp(label)
    }

    /// Appends a mark to the active run's trace; whether it was recorded.
    static func markActiveRun(_ label: String) -> Bool {
      guard #available(ExecutorHooks 1.0, *) else { return false }
      return RunDriver.shared.mark(label)
    }
  }
#endif
