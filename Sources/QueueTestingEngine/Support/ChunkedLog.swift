/// An append-only list kept in fixed-size chunks.
///
/// A controlled run appends a trace record and a schedule choice per job, a million of them in a
/// long run. An array that doubles copies everything it holds at each growth and touches twice
/// the memory it ends with; chunks are never copied, and once freed they are small enough for the
/// allocator to hand the same memory to the next run (an array this large is a fresh mapping
/// every time, whose pages the kernel must fault in and zero).
struct ChunkedLog<Element> {
  /// Elements per chunk: 4096 (64 KB of 16-byte trace records), under the allocator's threshold
  /// for giving large blocks their own mapping.
  static var chunkCapacity: Int { 4096 }

  /// The full chunks, oldest first.
  private var full: [[Element]] = []
  /// The chunk being filled; it grows like any array up to `chunkCapacity`, so short runs stay small.
  private var tail: [Element] = []

  /// Creates an empty log.
  init() {}

  /// Appends `element`.
  @inline(__always)
  mutating func append(_ element: Element) {
    if tail.count == Self.chunkCapacity { startChunk() }
    tail.append(element)
  }

  private mutating func startChunk() {
    full.append(tail)
    tail = []
    tail.reserveCapacity(Self.chunkCapacity)
  }
}

extension ChunkedLog: RandomAccessCollection {
  var startIndex: Int { 0 }
  var endIndex: Int { full.count * Self.chunkCapacity + tail.count }

  subscript(position: Int) -> Element {
    let chunk = position / Self.chunkCapacity
    let offset = position % Self.chunkCapacity
    return chunk < full.count ? full[chunk][offset] : tail[offset]
  }
}

extension ChunkedLog: Equatable where Element: Equatable {}
extension ChunkedLog: Sendable where Element: Sendable {}
