#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import Foundation
  import Synchronization

  /// In a child process running a controlled test: when the process crashes (a trap, an abort, a
  /// bad access), writes which controlled schedule was running to standard error before the crash
  /// ends it, so that the parent can say which schedule crashed and how to run the series to it
  /// again.
  ///
  /// The note is written from a signal handler, so it uses only what is safe there: an atomic
  /// load, formatting into a buffer on the stack, and `write(2)`. The handler is installed with
  /// `SA_RESETHAND`, so raising the signal again after the note ends the process as the signal
  /// would have (its status and the runtime's own message stay what they were).
  enum CrashNote {
    /// What the note starts with on standard error; the schedule number follows.
    static let marker = "QueueTesting crash during controlled schedule "
    /// What the note of a process that exits (`exit(_:)` called by the code under test) while a
    /// schedule runs starts with; the schedule number follows.
    static let exitMarker = "QueueTesting exit during controlled schedule "

    /// The number of the schedule running now (0: none). A global atomic, which a signal handler
    /// may read.
    static let schedule = Atomic<Int>(0)

    private static let installed = Mutex(false)

    /// The signals a crash raises: traps (`fatalError`, a failed precondition), aborts (the
    /// concurrency runtime's fatal errors) and bad accesses.
    private static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Installs the handler once per process.
    static func install() {
      guard
        installed.withLock({ installed in
          defer { installed = true }
          return !installed
        })
      else { return }
      // Touch the atomic now: its lazy initialization must not run inside the handler.
      _ = schedule.load(ordering: .relaxed)
      for signal in signals {
        var action = sigaction()
        #if canImport(Darwin)
          action.__sigaction_u.__sa_handler = handle
        #else
          action.__sigaction_handler.sa_handler = handle
        #endif
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
        sigaction(signal, &action, nil)
      }
      // A body that calls `exit` ends the process without a signal: the note is written at exit,
      // when a schedule is running (the series sets it back to 0 when it ends).
      atexit {
        let number = CrashNote.schedule.load(ordering: .relaxed)
        guard number > 0 else { return }
        FileHandle.standardError.write(Data("\n\(CrashNote.exitMarker)\(number)\n".utf8))
      }
    }

    /// Whether `standardError` holds the note of a process that exited during a schedule.
    static func exited(in standardError: String) -> Bool {
      standardError.contains(exitMarker)
    }

    /// The schedule number the note in `standardError` names, if it has one.
    static func schedule(in standardError: String) -> Int? {
      guard
        let range = standardError.range(of: marker, options: .backwards)
          ?? standardError.range(of: exitMarker, options: .backwards)
      else { return nil }
      let digits = standardError[range.upperBound...].prefix { $0.isNumber }
      return Int(digits)
    }
  }

  /// The handler: the note, then the signal again (now with its default action).
  private func handle(_ signal: Int32) {
    var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &buffer) { bytes in
      var count = 0
      let newline = UInt8(ascii: "\n")
      bytes[count] = newline
      count += 1
      for byte in CrashNote.marker.utf8 where count < 60 {
        bytes[count] = byte
        count += 1
      }
      var number = CrashNote.schedule.load(ordering: .relaxed)
      var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
      let written = withUnsafeMutableBytes(of: &digits) { digitBytes -> Int in
        var length = 0
        repeat {
          digitBytes[length] = UInt8(ascii: "0") + UInt8(number % 10)
          number /= 10
          length += 1
        } while number > 0 && length < 20
        return length
      }
      withUnsafeBytes(of: &digits) { digitBytes in
        for index in stride(from: written - 1, through: 0, by: -1) where count < 79 {
          bytes[count] = digitBytes[index]
          count += 1
        }
      }
      bytes[count] = newline
      count += 1
      _ = write(2, bytes.baseAddress, count)
    }
    raise(signal)
  }
#endif
