#if compiler(>=6.3)
  /// The jobs a run's driver thread enqueued since the driver last looked at the run's state (see
  /// ``ControlledRun/captures``), in memory of its own: an array here would pay a uniqueness check and a
  /// retain per job, and emptying one with its capacity kept is a general range replacement,
  /// which would cost more than the lock round trip this list saves.
  @available(ExecutorHooks 1.0, *)
  struct DriverCaptures {
    typealias Capture = RunState.CapturedJob

    private var base = UnsafeMutablePointer<Capture>.allocate(capacity: 16)
    private var capacity = 16
    private(set) var count = 0

    @inline(__always)
    mutating func append(_ capture: Capture) {
      if count == capacity { grow() }
      (base + count).initialize(to: capture)
      count += 1
    }

    private mutating func grow() {
      let larger = UnsafeMutablePointer<Capture>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: base, count: count)
      base.deallocate()
      base = larger
      capacity *= 2
    }

    /// Passes each capture to `body`, oldest first, and empties the list.
    @inline(__always)
    mutating func drain(_ body: (Capture) -> Void) {
      for index in 0..<count { body(base[index]) }
      // Captures are plain values (a job pointer and numbers): nothing to deinitialize.
      count = 0
    }

    func deallocate() {
      base.deallocate()
    }
  }
#endif
