// The XCTest example of the article "Checking your own type".
import QueueTesting
import XCTest

final class HitCounterTests: XCTestCase {
  func testCounterIsLinearizable() async {
    await assertLinearizable(
      LinearizabilityCheck(
        model: CounterModel(),
        operations: { random in Bool.random(using: &random) ? .increment : .get },
        make: { AtomicHitCounter() },
        perform: { counter, operation in
          operation == .increment ? await counter.increment() : await counter.get()
        }))
  }
}
