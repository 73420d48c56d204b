#if compiler(>=6.3)
  internal import CQueueTestingRuntime

  /// Hops of tasks onto and off default actors on the driver thread, for the run's picture and for
  /// deferred arrivals (see `ActorHops.c`).
  @available(ExecutorHooks 1.0, *)
  enum ActorHopProbe {
    /// A hop: the task's runtime id, the actor it left and the actor it entered (0: none).
    typealias Hop = (task: UInt64, from: UInt, to: UInt)

    /// Starts (or stops) noting the calling thread's hops; either forgets notes not taken.
    static func record(_ on: Bool) {
      qt_record_actor_hops(on)
    }

    /// Makes the calling thread's hops onto default actors arrive through `executor` first, as a
    /// job of their own; nil turns it off.
    static func deferArrivals(to executor: UnownedSerialExecutor?) {
      if let executor {
        let (identity, implementation) = unsafeBitCast(executor, to: (UInt, UInt).self)
        qt_defer_actor_arrivals(identity, implementation)
      } else {
        qt_defer_actor_arrivals(0, 0)
      }
    }

    /// Calls `observer` at each deferred hop, while the hopping task is current; nil stops it.
    static func observeDeferredHops(_ observer: (@convention(c) () -> Void)?) {
      qt_observe_deferred_hops(observer)
    }

    /// Whether notes wait to be taken: a check at every step.
    @inline(__always)
    static var hasHops: Bool { qt_actor_hop_count() > 0 }

    /// The actor the latest note not taken entered (0: none).
    static var lastActorEntered: UInt { UInt(qt_last_actor_entered()) }

    /// Passes each note to `body`, oldest first, and forgets it.
    @inline(__always)
    static func takeHops(_ body: (Hop) -> Void) {
      // Small enough for the stack: a heap buffer per step would cost more than the notes.
      withUnsafeTemporaryAllocation(of: QTActorHop.self, capacity: 16) { buffer in
        while true {
          let count = Int(qt_take_actor_hops(buffer.baseAddress!, 16))
          for hop in buffer.prefix(count) { body((hop.task, UInt(hop.from), UInt(hop.to))) }
          if count < 16 { break }
        }
      }
    }
  }
#endif
