#if compiler(>=6.3)
  import QueueTesting

  /// A buffer of one element: `put` waits while it is full (a caller may cancel that wait: the
  /// put then throws `CancellationError` and adds nothing), `take` waits while it is empty.
  struct OneSlotBufferModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case put(Int)
      /// A put its caller cancels while it may be waiting.
      case putThenCancel(Int)
      case take
      var description: String {
        switch self {
        case .put(let value): "put(\(value))"
        case .putThenCancel(let value): "put(\(value)) cancelled"
        case .take: "take()"
        }
      }
    }

    var slot: Int?

    mutating func apply(_ operation: Operation) -> ModelStep<Int> {
      switch operation {
      case .put(let value), .putThenCancel(let value):
        guard slot == nil else { return .cancellable(.waits) }
        slot = value
        return .cancellable(.returns(0))
      case .take:
        guard let value = slot else { return .waits }
        slot = nil
        return .returns(value)
      }
    }
  }

  protocol BufferUnderTest: Actor {
    func put(_ value: Int) async throws
    func take() async -> Int
  }

  /// One slot, with waiting putters and takers. `dropsOnCancel` is the bug: a putter cancelled
  /// while it waits returns as if its element went in, and the element is gone.
  actor OneSlotBuffer: BufferUnderTest {
    private struct Putter {
      var id: Int
      var value: Int
      var continuation: CheckedContinuation<Void, any Error>
    }
    private let dropsOnCancel: Bool
    private var slot: Int?
    private var putters: [Putter] = []
    private var takers: [CheckedContinuation<Int, Never>] = []
    private var nextID = 0

    init(dropsOnCancel: Bool) {
      self.dropsOnCancel = dropsOnCancel
    }

    func put(_ value: Int) async throws {
      try Task.checkCancellation()
      if !takers.isEmpty {
        takers.removeFirst().resume(returning: value)
        return
      }
      if slot == nil {
        slot = value
        return
      }
      let id = nextID
      nextID += 1
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          putters.append(Putter(id: id, value: value, continuation: continuation))
        }
      } onCancel: {
        Task { await self.cancelPut(id) }
      }
    }

    private func cancelPut(_ id: Int) {
      guard let index = putters.firstIndex(where: { $0.id == id }) else { return }
      let putter = putters.remove(at: index)
      if dropsOnCancel {
        putter.continuation.resume()
      } else {
        putter.continuation.resume(throwing: CancellationError())
      }
    }

    func take() async -> Int {
      if let value = slot {
        slot = nil
        if !putters.isEmpty {
          let putter = putters.removeFirst()
          slot = putter.value
          putter.continuation.resume()
        }
        return value
      }
      if !putters.isEmpty {
        let putter = putters.removeFirst()
        putter.continuation.resume()
        return putter.value
      }
      return await withCheckedContinuation { takers.append($0) }
    }
  }

  extension LinearizabilityCheck where Model == OneSlotBufferModel {
    static func buffer(dropsOnCancel: Bool) -> LinearizabilityCheck<OneSlotBufferModel, OneSlotBuffer> {
      LinearizabilityCheck<OneSlotBufferModel, OneSlotBuffer>(
        model: OneSlotBufferModel(),
        operations: { random in
          let value = Int.random(in: 1...3, using: &random)
          return [.put(value), .putThenCancel(value), .take].randomElement(using: &random)!
        },
        shrink: { operation in
          switch operation {
          case .put(let value): (1..<value).map(OneSlotBufferModel.Operation.put)
          case .putThenCancel(let value): [.put(value)] + (1..<value).map(OneSlotBufferModel.Operation.putThenCancel)
          case .take: []
          }
        },
        make: { OneSlotBuffer(dropsOnCancel: dropsOnCancel) },
        perform: { buffer, operation in
          switch operation {
          case .put(let value):
            try await buffer.put(value)
            return 0
          case .putThenCancel(let value):
            let putting = Task { try await buffer.put(value) }
            await Task.yield()
            putting.cancel()
            try await putting.value
            return 0
          case .take:
            return await buffer.take()
          }
        })
    }
  }
#endif
