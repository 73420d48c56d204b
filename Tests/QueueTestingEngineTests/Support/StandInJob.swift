#if compiler(>=6.3)
  @testable import QueueTestingEngine

  /// Numbered stand-ins for runtime jobs, for tests of the executor's state machines: never run,
  /// only held, stored and compared (an `UnownedJob` is one pointer).
  enum StandInJob {
    static func make(_ number: Int) -> UnownedJob {
      unsafeBitCast(UnsafeRawPointer(bitPattern: number * 16)!, to: UnownedJob.self)
    }

    static func number(of job: UnownedJob) -> Int {
      Int(bitPattern: unsafeBitCast(job, to: UInt.self)) / 16
    }
  }
#endif
