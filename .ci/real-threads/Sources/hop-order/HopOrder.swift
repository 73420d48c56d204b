import AsyncQueue

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The hop table (`HopOrderTable.swift`, the same file the harness's tests compile) on real
// threads. Prints one line per cell: "<departure> -> <arrival>: K of R runs out of order"; exits
// 1 if a cell whose tasks leave a serial executor reordered.
//   hop-order [RUNS] [TASKS]    (500 runs of 20 tasks by default)

@main
struct HopOrder {
  static func main() async {
    let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
    let runs = arguments.first ?? 500
    let count = arguments.dropFirst().first ?? 20
    var failures = 0
    for cell in HopCell.all {
      var outOfOrder = 0
      for _ in 0..<runs {
        // From a task on the generic executor, as a test body is.
        let inOrder = await Task.detached {
          await cell.arrivesInOrder(count: count, busySpins: 200_000, mainQueue: MainActor.queue)
        }.value
        if !inOrder { outOfOrder += 1 }
      }
      let keepsOrder = cell.departure.keepsOrder
      let verdict = keepsOrder ? (outOfOrder == 0 ? "keeps order" : "REORDERED") : "may reorder"
      if keepsOrder && outOfOrder > 0 { failures += 1 }
      print("\(cell): \(outOfOrder) of \(runs) runs out of order (\(verdict))")
    }
    if failures > 0 {
      print("hop-order: \(failures) cell(s) that must keep their order reordered on real threads")
      exit(1)
    }
  }
}
