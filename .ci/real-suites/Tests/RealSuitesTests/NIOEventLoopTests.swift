// A test of swift-nio 2.101.3 (Apache License 2.0; Copyright (c) 2017-2024 Apple Inc. and the
// SwiftNIO project authors), from NIOPosixTests/EventLoopTest.swift, as its authors wrote it but
// with the public imports a user has (`@testable` dropped) and the default trait added. The event
// loop's thread runs the repeated task's callbacks while the test sleeps 100 ms: the run started
// that thread, so its virtual sleep waits in real time as a real sleep would.
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import QueueTesting
import Testing

@Suite(.controlledScheduling())
struct NIOEventLoopTests {
  @Test
  func testRepeatedTaskThatIsImmediatelyCancelledNotifies() async throws {
    let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    defer {
      #expect(throws: Never.self) {
        try eventLoopGroup.syncShutdownGracefully()
      }
    }

    let loop = eventLoopGroup.next()
    let promise1: EventLoopPromise<Void> = loop.makePromise()
    let promise2: EventLoopPromise<Void> = loop.makePromise()
    try await confirmation(expectedCount: 2) { confirmation in
      promise1.futureResult.whenSuccess { confirmation() }
      promise2.futureResult.whenSuccess { confirmation() }
      loop.execute {
        let task = loop.scheduleRepeatedTask(
          initialDelay: .milliseconds(0),
          delay: .milliseconds(0),
          notifying: promise1
        ) { task in
          Issue.record()
        }
        task.cancel(promise: promise2)
      }

      try await Task.sleep(nanoseconds: 100_000_000)
    }
  }
}

// The same test on the event loop group NIO recommends sharing, `MultiThreadedEventLoopGroup.singleton`:
// its thread exists before all but the first schedule, so no run starts it. The run wakes it (the
// loop's eventfd), and its virtual sleep waits in real time all the same.
@Suite(.controlledScheduling())
struct NIOSharedEventLoopTests {
  @Test
  func testRepeatedTaskThatIsImmediatelyCancelledNotifiesOnTheSingleton() async throws {
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    let promise1: EventLoopPromise<Void> = loop.makePromise()
    let promise2: EventLoopPromise<Void> = loop.makePromise()
    try await confirmation(expectedCount: 2) { confirmation in
      promise1.futureResult.whenSuccess { confirmation() }
      promise2.futureResult.whenSuccess { confirmation() }
      loop.execute {
        let task = loop.scheduleRepeatedTask(
          initialDelay: .milliseconds(0),
          delay: .milliseconds(0),
          notifying: promise1
        ) { task in
          Issue.record()
        }
        task.cancel(promise: promise2)
      }

      try await Task.sleep(nanoseconds: 100_000_000)
    }
  }
}

// A server's idle timeout as an HTTP server arms it: a task scheduled on the server's own event
// loop (the shared singleton, made before the run), 300 ms out. The client then waits longer than
// that, 1 s, and finds the connection closed, as on real threads. The run woke the loop, so its
// clock is paced by real time from then on; when a jump waited at most the outside-work timeout
// (100 ms here, as a short stand-in for a client's long timeout against the 2 s default), the
// client's wait ended first and found the connection open.
@Suite(.controlledScheduling(.random(5), outsideWorkTimeout: .milliseconds(100)))
struct NIOIdleTimeoutTests {
  @Test
  func aServersIdleTimeoutOnTheSharedLoopFiresBeforeTheClientsLongerWait() async throws {
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    let connection = NIOLockedValueBox("open")
    loop.execute {
      loop.scheduleTask(in: .milliseconds(300)) { connection.withLockedValue { $0 = "closed" } }
    }
    try await Task.sleep(for: .seconds(1))
    #expect(connection.withLockedValue { $0 } == "closed")
  }
}
