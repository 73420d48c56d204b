#if compiler(>=6.3) && os(Linux)
  import Foundation
  import Glibc
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// A datagram the run sends to a thread outside the harness is served before the run's longer
  /// sleep ends, as on real threads: the harness counts each way of sending to a socket as a
  /// wake-up, so virtual time waits for it in real time.
  @Suite(
    "Threads woken by a datagram",
    .enabled(
      if: ControlledExecutor.countsOutsideWork,
      "the test binary's Dispatch and thread calls reach the harness (not under the thread sanitizer)"),
    .timeLimit(.minutes(5)), .hangGuard)
  struct DatagramWakeUpTests {
    /// A thread made before the run, blocked reading a datagram socket (a server on an event loop
    /// shared between tests): each datagram takes it a millisecond to serve. The run sends to it
    /// as an event loop writes a socket: `sendto`, `sendmsg`, or `sendmmsg` (NIO's batched
    /// datagram writes).
    final class DatagramReader: Sendable {
      enum Call: String, CaseIterable, Sendable { case sendto, sendmsg, sendmmsg }
      private let reader: Int32
      private let writer: Int32
      let box = CallbackBox()

      init() {
        var ends: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0, &ends) == 0, "socketpair")
        (reader, writer) = (ends[0], ends[1])
        Thread { [self] in serve() }.start()
      }

      private func serve() {
        var byte: UInt8 = 0
        while recv(reader, &byte, 1, 0) != 1 {}
        usleep(1_000)
        box.set(9)
        close(reader)
        close(writer)
      }

      /// Sends one byte by `call`.
      func send(by call: Call) {
        var byte: UInt8 = 1
        withUnsafeMutablePointer(to: &byte) { bytePointer in
          var vector = iovec(iov_base: UnsafeMutableRawPointer(bytePointer), iov_len: 1)
          withUnsafeMutablePointer(to: &vector) { vectorPointer in
            var message = msghdr()
            message.msg_iov = vectorPointer
            message.msg_iovlen = 1
            switch call {
            case .sendto: precondition(sendto(writer, bytePointer, 1, 0, nil, 0) == 1, "sendto")
            case .sendmsg: precondition(sendmsg(writer, &message, 0) == 1, "sendmsg")
            case .sendmmsg: precondition(Self.sendMessages(writer, message) == 1, "sendmmsg")
            }
          }
        }
      }

      /// Calls `sendmmsg` with one message, found as a C library's call to it is (the Glibc
      /// module leaves the GNU extension out).
      private static func sendMessages(_ descriptor: Int32, _ message: msghdr) -> Int32 {
        typealias SendMessages = @convention(c) (Int32, UnsafeMutableRawPointer, UInt32, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "sendmmsg") else { return -1 }
        // `struct mmsghdr`: the message, then the count of bytes sent, padded to the message's
        // alignment.
        let alignment = MemoryLayout<msghdr>.alignment
        let size = (MemoryLayout<msghdr>.size + MemoryLayout<UInt32>.size + alignment - 1) / alignment * alignment
        let entry = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: alignment)
        defer { entry.deallocate() }
        entry.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        entry.storeBytes(of: message, as: msghdr.self)
        return unsafeBitCast(symbol, to: SendMessages.self)(descriptor, entry, 1, 0)
      }
    }

    /// The run sends a datagram to a thread made before it, then sleeps 200 ms: on real threads
    /// the thread serves it in about a millisecond, and the body reads its value (checked first,
    /// with a reader of its own). A send to a
    /// socket counts as waking a thread, as a write does, whichever call makes it.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: DatagramReader.Call.allCases)
    func aDatagramSentToAThreadMadeBeforeTheRunIsServedBeforeTheSleepEnds(by call: DatagramReader.Call) async {
      let onRealThreads = DatagramReader()
      onRealThreads.send(by: call)
      try? await Task.sleep(for: .milliseconds(200))
      #expect(onRealThreads.box.value == 9, "on real threads")
      let reader = DatagramReader()
      let result = ControlledExecutor.runBlocking(seed: 1) {
        reader.send(by: call)
        try? await Task.sleep(for: .milliseconds(200))
        TraceRecorder.mark("value: \(reader.box.value.map(String.init) ?? "none")")
      }
      #expect(result.outsideWork.threadsWoken > 0, "\(result.outsideWork)")
      #expect(VirtualTimeAndRealThreadsTests.marks(result) == ["value: 9"])
    }
  }
#endif
