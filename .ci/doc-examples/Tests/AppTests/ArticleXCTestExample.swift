// The article's XCTest example, with the imports the article shows by then.
import AsyncQueue
import QueueTesting
import XCTest

final class CounterTests: XCTestCase {
  func testQueueKeepsOrder() async {
    await runControlledSchedules(ControlledScheduling(.random(50))) {
      let queue = FIFOQueue()
      let recorder = OrderRecorder()
      queue.enqueue { recorder.mark("first") }
      queue.enqueue { recorder.mark("second") }
      await queue.enqueueAndWait {}
      expectOrder(recorder, ["first", "second"])
    }
  }
}
