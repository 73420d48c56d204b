import Foundation
import QueueWorkloads
import Testing

/// The guard every suite carries: a test suspended where cancellation does not reach ends the
/// test process, named, instead of holding `swift test` for ever; a test that finishes does not.
@Suite("Hang guard", .timeLimit(.minutes(5)), .hangGuard)
struct HangGuardTests {
  @Test func aHungTestEndsTheProcessNamingIt() async {
    let result = await #expect(
      processExitsWith: .exitCode(HangGuard.exitStatus), observing: [\.standardErrorContent]
    ) {
      await HangGuard.guarding("Suite/hangs()", limit: .milliseconds(300)) {
        // Suspended for good: nothing resumes it, and cancellation does not reach it.
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
      }
    }
    let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(errors.contains("HangGuard: Suite/hangs() did not finish within 0.3 seconds; ending the test process"))
  }

  @Test func aTestThatFinishesIsLeftAlone() async {
    await #expect(processExitsWith: .success) {
      let value = await HangGuard.guarding("Suite/finishes()", limit: .milliseconds(100)) { 7 }
      try? await Task.sleep(for: .milliseconds(400))
      exit(value == 7 ? 0 : 2)
    }
  }
}
