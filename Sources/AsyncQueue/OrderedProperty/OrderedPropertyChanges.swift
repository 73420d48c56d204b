/// The changes of an ``OrderedProperty`` written after ``OrderedProperty/changes(bufferingPolicy:)``
/// was called, in write order, as an asynchronous sequence.
///
/// - **Order:** the same as an observer's: every change once, in write order.
/// - **Buffer:** changes wait in a buffer until the loop takes them. With the default policy,
///   `.unbounded`, a loop that falls behind a fast writer holds every change it has not taken
///   yet; pass `.bufferingNewest(n)` (or `.bufferingOldest(n)`) to keep at most `n`, dropping the
///   rest (the changes that do arrive still come in write order).
/// - **Lifetime:** the observation ends, and its buffer is freed, when the loop ends: leaving a
///   `for await` loop (with `break`, `return` or a thrown error) or the iterating task's
///   cancellation releases its iterator, and that ends it, even while the sequence itself is
///   still held. A sequence that is never iterated ends its observation when it is released.
/// - **One loop:** iterate a sequence once; call `changes()` again for a second consumer.
public struct OrderedPropertyChanges<Value: Sendable>: AsyncSequence, Sendable {
  /// A change: the old and new value and the write's version.
  public typealias Element = OrderedPropertyChange<Value>
  /// The sequence never throws.
  public typealias Failure = Never

  /// Owns the observation: ``end()``, or its release with the last sequence or iterator that
  /// holds it, ends the observation. The property's observer holds only the stream's
  /// continuation, never this, so nothing the property keeps can hold the observation alive.
  final class Subscription: Sendable {
    let stream: AsyncStream<Element>
    let continuation: AsyncStream<Element>.Continuation
    let token: ObservationToken

    init(
      stream: AsyncStream<Element>, continuation: AsyncStream<Element>.Continuation, token: ObservationToken
    ) {
      self.stream = stream
      self.continuation = continuation
      self.token = token
    }

    /// Ends the observation; calling it again does nothing.
    func end() {
      token.cancel()
      continuation.finish()
    }

    deinit {
      end()
    }
  }

  /// Held by an iterator (and its copies): its release is the end of the loop.
  final class Iteration: Sendable {
    let subscription: Subscription

    init(_ subscription: Subscription) {
      self.subscription = subscription
    }

    deinit {
      subscription.end()
    }
  }

  let subscription: Subscription

  /// Takes the changes one by one.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<Element>.Iterator
    let iteration: Iteration

    /// The next change, waiting for it if none is buffered; nil once the iterating task is
    /// cancelled.
    public mutating func next() async -> Element? {
      await base.next()
    }

    /// The next change, waiting for it if none is buffered; nil once the iterating task is
    /// cancelled.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      await base.next(isolation: actor)
    }
  }

  /// Starts the loop over the changes.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: subscription.stream.makeAsyncIterator(), iteration: Iteration(subscription))
  }
}
