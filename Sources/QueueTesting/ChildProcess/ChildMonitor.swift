#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  /// The parent's decision, made on each look at a running child process, whether to end it.
  ///
  /// Two bounds, both in the parent's own monotonic time, so that neither waits forever on a
  /// child:
  /// - A test with a `.timeLimit` may run for that long plus a grace, in which the child's own
  ///   watchdog (which says which job was stuck) acts first.
  /// - Every child must show that it is alive: its watchdog thread counts a heartbeat several
  ///   times a second, whatever the test does. A child whose heartbeat has not moved for the
  ///   silence limit (the job limit plus the grace) cannot be ending a stuck job itself any
  ///   more: it is stopped or wedged, and only the parent can end it. The bound holds from the
  ///   start, so a child that never reaches the test is ended too.
  struct ChildMonitor: Sendable, Equatable {
    /// Why the parent ends the child.
    enum Verdict: Sendable, Equatable {
      /// The child may go on.
      case running
      /// The child outlived the test's time limit plus the grace.
      case exceededTimeLimit(Duration)
      /// The child showed no sign of life for this long.
      case silent(Duration)
    }

    let started: ContinuousClock.Instant
    let timeLimit: Duration?
    let grace: Duration
    /// Nil when the child has no heartbeat file to write to.
    let silenceLimit: Duration?
    private var lastBeat: UInt64?
    private var lastChange: ContinuousClock.Instant

    init(
      started: ContinuousClock.Instant, timeLimit: Duration?, jobTimeLimit: Duration, grace: Duration,
      heartbeat: Bool = true
    ) {
      self.started = started
      self.timeLimit = timeLimit
      self.grace = grace
      self.silenceLimit = heartbeat ? jobTimeLimit + grace : nil
      self.lastChange = started
    }

    /// Takes the heartbeat read at `now` (nil when there is none yet) and says whether to end
    /// the child.
    mutating func look(beat: UInt64?, at now: ContinuousClock.Instant) -> Verdict {
      if let timeLimit, now - started >= timeLimit + grace { return .exceededTimeLimit(timeLimit) }
      if let beat, beat != lastBeat {
        lastBeat = beat
        lastChange = now
        return .running
      }
      guard let silenceLimit else { return .running }
      let silence = now - lastChange
      return silence >= silenceLimit ? .silent(silence) : .running
    }
  }
#endif
