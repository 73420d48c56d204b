#if compiler(>=6.3)
  /// How virtual time and real time went along in a run: the real time since virtual time last
  /// moved (what a paced jump no longer waits for), and how much virtual time the run skipped, for
  /// the clock reads of its jobs: each jump counts, less the real time the driver waited (for work
  /// outside the harness) before it, which the real clock already shows.
  struct ClockPacing {
    private var lastNow: UInt64 = 0
    private var waitedSinceJump: UInt64 = 0
    private var lastJumpReal = VirtualTimeProbe.realNanoseconds()

    /// The run's virtual time after a decision.
    mutating func timeIs(_ now: UInt64) {
      guard now > lastNow else { return }
      VirtualTimeProbe.jumped(by: now - lastNow, afterWaiting: waitedSinceJump)
      lastNow = now
      waitedSinceJump = 0
      lastJumpReal = VirtualTimeProbe.realNanoseconds()
    }

    /// The real time since virtual time last moved (or the run began).
    func realSinceJump() -> Duration {
      let now = VirtualTimeProbe.realNanoseconds()
      return .nanoseconds(Int64(clamping: now > lastJumpReal ? now - lastJumpReal : 0))
    }

    /// The driver waited in real time from `start` (``VirtualTimeProbe/realNanoseconds()``) until now.
    mutating func waited(since start: UInt64) {
      let now = VirtualTimeProbe.realNanoseconds()
      if now > start { waitedSinceJump &+= now - start }
    }
  }
#endif
