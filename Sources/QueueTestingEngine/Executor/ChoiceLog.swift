/// The choices of a run and how many jobs were runnable at each, in 4 bytes per choice.
///
/// A yield-heavy run makes a choice per job. Kept as two arrays of `Int` that is 16 bytes per
/// job of fresh memory (which the kernel faults in and zeroes), a real share of the driver's
/// time; packed, a choice and its branching share one 32-bit word. A run with 65,536
/// runnable jobs or more keeps those choices whole in `wide`, in order, behind an escape word.
struct ChoiceLog: Equatable, Sendable {
  /// Branching in the high 16 bits, the choice in the low 16; a branching of 0 (a choice is only
  /// made among two or more jobs) marks a choice kept in `wide`.
  private var packed = ChunkedLog<UInt32>()
  private var wide: [Wide] = []

  private struct Wide: Equatable, Sendable {
    let choice: Int
    let branching: Int
  }

  /// Creates an empty log.
  init() {}

  /// How many choices the log holds.
  var count: Int { packed.count }

  /// Appends a choice of the job at `choice` among `branching` runnable jobs.
  @inline(__always)
  mutating func append(choice: Int, branching: Int) {
    if branching <= 0xFFFF, choice >= 0, choice < branching {
      packed.append(UInt32(truncatingIfNeeded: branching) << 16 | UInt32(truncatingIfNeeded: choice))
    } else {
      packed.append(0)
      wide.append(Wide(choice: choice, branching: branching))
    }
  }

  /// The choices, in order.
  var choices: [Int] { unpacked(\.choice, shift: 0) }

  /// How many jobs were runnable at each choice, in order.
  var branching: [Int] { unpacked(\.branching, shift: 16) }

  private func unpacked(_ field: KeyPath<Wide, Int>, shift: UInt32) -> [Int] {
    var values: [Int] = []
    values.reserveCapacity(packed.count)
    var nextWide = 0
    for word in packed {
      if word >> 16 == 0 {
        values.append(wide[nextWide][keyPath: field])
        nextWide += 1
      } else {
        values.append(Int(word >> shift & 0xFFFF))
      }
    }
    return values
  }
}
