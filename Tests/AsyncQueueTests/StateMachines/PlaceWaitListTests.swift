import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("PlaceWaitList", .timeLimit(.minutes(5)), .hangGuard)
struct PlaceWaitListTests {
  typealias List = PlaceWaitList<Int>

  /// Every sequence of up to 9 parks and grants over 6 places, against a dictionary keyed by
  /// place: each grant returns exactly the holder that parked for that place, or nil.
  @Test func exhaustiveAgainstDictionary() {
    let places = 6
    struct Model {
      var next = 0  // the next place to be granted
      var parked: [Int: Int] = [:]  // place -> holder
      var seen: Set<Int> = []  // places that parked or were granted (each at most once)
    }
    func explore(_ list: List, _ model: Model, depth: Int) -> Int {
      guard depth > 0 else { return 1 }
      var explored = 0
      for place in 0..<places where place >= model.next && !model.seen.contains(place) {
        var list = list
        var model = model
        let holder = 100 + place
        list.park(holder, distance: place - model.next)
        model.parked[place] = holder
        model.seen.insert(place)
        #expect(!list.isEmpty)
        explored += explore(list, model, depth: depth - 1)
      }
      if model.next < places {
        var list = list
        var model = model
        let granted = list.grantNext()
        #expect(granted == model.parked.removeValue(forKey: model.next), "place \(model.next)")
        model.seen.insert(model.next)
        model.next += 1
        #expect(list.isEmpty == model.parked.isEmpty)
        explored += explore(list, model, depth: depth - 1)
      }
      return explored
    }
    let explored = explore(List(), Model(), depth: 9)
    #expect(explored > 10_000)
  }

  /// A burst of waiting holders parked in reverse order comes out in place order, and the emptied
  /// list gives its memory back.
  @Test func burstComesOutInOrderAndReleasesItsMemory() {
    var list = List()
    let count = 10_000
    for place in (0..<count).reversed() { list.park(place, distance: place) }
    #expect(list.allocatedSlots >= count)
    for place in 0..<count {
      let granted = list.grantNext()
      #expect(granted == place)
    }
    #expect(list.isEmpty)
    #expect(list.allocatedSlots <= List.keptCapacity)
    let nobody = list.grantNext()
    #expect(nobody == nil)
  }

  /// A line that never empties (about 100 holders waiting while thousands are granted) stays
  /// bounded: the granted front is dropped as it grows.
  @Test func steadyLineStaysBounded() {
    var list = List()
    let inFlight = 100
    for place in 0..<inFlight { list.park(place, distance: place) }
    var largest = 0
    for place in 0..<20_000 {
      let granted = list.grantNext()
      #expect(granted == place)
      // The holder `inFlight` places further on parks; distances count from the next grant.
      list.park(place + inFlight, distance: inFlight - 1)
      largest = max(largest, list.allocatedSlots)
    }
    #expect(largest < 8 * inFlight, "slots grew to \(largest)")
  }
}
