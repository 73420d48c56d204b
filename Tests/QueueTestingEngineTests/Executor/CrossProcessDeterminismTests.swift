#if compiler(>=6.3)
  import AsyncQueue
  import Foundation
  import QueueTestingEngine
  import QueueWorkloads
  import Testing

  /// A body with real interleaving: tasks, an actor, yields, a queue and a virtual sleep.
  let determinismProbeBody: @Sendable () async -> Void = {
    let counter = CountingActor()
    let queue = FIFOQueue()
    await withTaskGroup(of: Void.self) { group in
      for index in 1...12 {
        group.addTask {
          await Task.yield()
          await counter.incrementAndCheck(index)
          queue.enqueue { await Task.yield() }
        }
      }
    }
    try? await Task.sleep(for: .milliseconds(30))  // virtual time under the harness
    await queue.enqueueAndWait {}
  }

  @Suite("Determinism across processes", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct CrossProcessDeterminismTests {
    /// Two fresh processes (exit tests) and this one produce the same trace hash for the same seed;
    /// run-local task ids keep the hash independent of each process's history.
    @available(ExecutorHooks 1.0, *)
    @Test func sameSeedSameTraceHashInSeparateProcesses() async throws {
      let here = await ControlledExecutor.run(seed: 2026, determinismProbeBody)
      #expect(here.outcome == .completed)
      var hashes: [String] = []
      for _ in 0..<2 {
        let child = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
          let result = await ControlledExecutor.run(seed: 2026, determinismProbeBody)
          print("TRACE-HASH \(result.trace.hash) STEPS \(result.steps)")
        }
        let output = String(decoding: child?.standardOutputContent ?? [], as: UTF8.self)
        let line = output.split(separator: "\n").first { $0.hasPrefix("TRACE-HASH ") }
        hashes.append(line.map(String.init) ?? "missing: \(output)")
      }
      let expected = "TRACE-HASH \(here.trace.hash) STEPS \(here.steps)"
      #expect(hashes == [expected, expected])
    }
  }
#endif
