/// A clock whose `now` is the virtual time of the active controlled run, for code under test that
/// reads the time. (In a run's jobs the continuous and suspending clocks' `now` follow virtual
/// time too, on top of the real time; this clock starts at zero and moves only with the run.)
///
/// Inject it where the code takes a `Clock`. Under ``ControlledExecutor``, sleeping on it takes
/// virtual time like any `Task.sleep`: it ends when the run's virtual time reaches the deadline,
/// which happens as soon as nothing else can run. Outside a run, `now` is zero and sleeping
/// sleeps for real on the continuous clock.
public struct VirtualClock: Clock, Sendable {
  /// A point in virtual time: the time since the run began.
  public struct Instant: InstantProtocol, Sendable {
    /// Time since the start of the run.
    public var offset: Duration

    /// Creates an instant `offset` after the start of the run.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Earlier instants compare less.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  /// Creates the clock.
  public init() {}

  /// The run's virtual time (zero outside a run).
  public var now: Instant {
    #if compiler(>=6.3)
      Instant(offset: .nanoseconds(ControlledExecutor.activeRunVirtualNow ?? 0))
    #else
      Instant(offset: .zero)
    #endif
  }

  /// One nanosecond.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// Sleeps until `deadline` in virtual time (rounded up to whole milliseconds by the run).
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let remaining = now.duration(to: deadline)
    if remaining > .zero {
      try await Task.sleep(for: remaining, tolerance: tolerance, clock: .continuous)
    }
  }
}
