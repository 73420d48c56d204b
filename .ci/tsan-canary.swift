// Proves two things the thread-sanitizer run relies on:
// 1. TSan on this toolchain reports a real race (`racy`), so a clean `swift test --sanitize=thread`
//    means something;
// 2. the same access pattern under AsyncQueue's `LockedState` is not reported (`locked`), so the
//    queues' lock is one TSan understands (Synchronization.Mutex is not, on Linux).
// Built by .ci/tsan-canary.sh together with Sources/AsyncQueue/Internal/LockedState.swift.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` on two new threads at once and joins them.
func onTwoThreads(_ body: @escaping @Sendable () -> Void) {
  final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
  var threads: [pthread_t] = []
  for _ in 0..<2 {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let status = pthread_create(&thread, nil, { context in
      let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
      body.run()
      return nil
    }, context)
    precondition(status == 0, "pthread_create failed")
    threads.append(thread)
  }
  for thread in threads { pthread_join(thread, nil) }
}

final class Unprotected: @unchecked Sendable {  // deliberately unsafe: this is the race to detect
  var value = 0
}

@main
struct TSanCanary {
  static func main() {
    let mode = CommandLine.arguments.dropFirst().first ?? "locked"
    if mode == "racy" {
      let box = Unprotected()
      onTwoThreads {
        for _ in 0..<1000 { box.value += 1 }
      }
      print("racy done: \(box.value)")
    } else {
      let box = LockedState<Int>.make(0)
      onTwoThreads {
        for _ in 0..<1000 { box.withLock { $0 += 1 } }
      }
      print("locked done: \(box.withLock { $0 })")
    }
  }
}
