#!/usr/bin/env bash
# What a user's package can name. A package depending on this one by path imports each product
# and names what is public (it must compile) and what is not (each must be refused): the scenario
# language, the shrinker and the deliberately broken queues belong to queue-fuzz, and the queues'
# observer hooks belong to the harness. One build; the compiler reports every refused name.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build/public-surface"
rm -rf "$work/Sources"
mkdir -p "$work/Sources/Surface"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "Surface",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "$root")],
  targets: [
    .target(
      name: "Surface",
      dependencies: [
        .product(name: "QueueTesting", package: "swift-queue-harness"),
        .product(name: "AsyncQueue", package: "swift-queue-harness"),
      ])
  ]
)
SWIFT
cat > "$work/Sources/Surface/Public.swift" <<'SWIFT'
import AsyncQueue
import QueueTesting

// What users name: each line must compile.
let fifo = FIFOQueue()
let series: ScheduleSeries = .portfolio(100, seed: 1)
let configuration = ControlledScheduling(.random(10))
func strategy() -> some ScheduleStrategy { SeededRandomStrategy(seed: 1) }
func strategies() -> [any ScheduleStrategy] { [PCTStrategy(seed: 1, depth: 2), ReplayStrategy(Schedule(choices: []))] }
let search = ExhaustiveSearch(delayBound: 2)
let reducer = ScheduleReducer(maxRuns: 20)
let targets: CancellationTargets = .named("download")
let gate = TestGate("loaded")
let reportType: (ControlledScheduling.Report, ControlledScheduling.Failure?, RunResult?, DeadlockReport?, OutsideWork?, Trace?)? = nil
let engineNames: (SeriesReport<ScheduleProblem>, ScheduleFailure<ScheduleProblem>)? = nil
// A test's failure has only the problems a test can produce: this switch names each, and no more.
func describe(_ problem: ScheduleProblem) -> String {
  switch problem {
  case .failuresRecorded, .threw, .deadlocked, .stepBudgetExceeded, .outsideWakeUpNeverCame, .stuck, .foreignExecutorHook:
    problem.summary
  }
}
let guarantees: Set<Guarantee> = Set(Guarantee.allCases)
let violation: OrderingViolation? = nil
let clock: VirtualClock? = nil
func mark() { TraceRecorder.mark("here") }
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
func run() async -> RunResult { await ControlledExecutor.run(seed: 1) {} }
SWIFT
cat > "$work/Sources/Surface/Strategy.swift" <<'SWIFT'
@_spi(Strategies) import QueueTesting

// A strategy's author sees what a strategy is shown through the Strategies SPI: this must compile.
struct LatestTaskFirst: ScheduleStrategy {
  mutating func choose(runnableCount: Int) -> Int { runnableCount - 1 }
  mutating func choose(from runnable: RunnableJobs, context: ChoiceContext) -> Int {
    runnable.index(ofTask: context.previousTask) ?? runnable.count - 1
  }
}
SWIFT
cat > "$work/Sources/Surface/Hidden.swift" <<'SWIFT'
import AsyncQueue
import QueueTesting

// What users cannot name: each line must be refused.
let hidden1: Scenario? = nil
let hidden2: ScenarioRunner.Options? = nil
let hidden3: QueueImplementation? = nil
let hidden4: ScenarioShrinker.Type? = nil
let hidden5: ScenarioParser.Type? = nil
let hidden6: (any QueueObserver)? = nil
let hidden7: QueueObservation? = nil
let hidden8: QueueDescription? = nil
// The engine's own machinery, shared with queue-fuzz as package API: the series loop and its
// notion of "fails the same way", the reducer's strategies, the picture, the oracle behind
// expectQueueGuarantees.
let hidden9: SeriesRunner? = nil
let hidden10: PreemptionRecorder<SeededRandomStrategy>? = nil
let hidden11: PreemptionGuidedStrategy? = nil
let hidden12: TraceChart? = nil
let hidden13: OrderingOracle.Type? = nil
let hidden14: ActorWork? = nil
let hidden15: FailureIdentity? = nil
let hidden16: ScenarioProblem? = nil
// What a strategy is shown, without the Strategies SPI.
let hidden17: RunnableJobs? = nil
let hidden18: ChoiceContext? = nil
let hidden19: BoundedExhaustiveStrategy? = nil
SWIFT
status=0
(cd "$work" && swift build > build.log 2>&1) || status=$?
test "$status" -ne 0 || { cat "$work/build.log"; echo "public-surface: a hidden name compiled" >&2; exit 1; }
! grep -Eq "(Public|Strategy).swift:[0-9]*:[0-9]*: error" "$work/build.log" \
  || { grep "error" "$work/build.log" | sort -u; echo "public-surface: a public name did not compile" >&2; exit 1; }
for name in Scenario ScenarioRunner QueueImplementation ScenarioShrinker ScenarioParser QueueObserver QueueObservation \
  QueueDescription SeriesRunner PreemptionRecorder PreemptionGuidedStrategy TraceChart OrderingOracle ActorWork FailureIdentity ScenarioProblem \
  RunnableJobs ChoiceContext BoundedExhaustiveStrategy; do
  grep -Eq "Hidden.swift:[0-9]+:[0-9]+: error: cannot find type '$name' in scope" "$work/build.log" \
    || { grep "error" "$work/build.log" | sort -u; echo "public-surface: '$name' is visible downstream" >&2; exit 1; }
done
echo "public-surface: a downstream package names the queues, the trait, the executor, strategies and reports; it cannot name the scenario types, the broken queues, the observer hooks or the engine's series loop, reducer strategies, picture and oracle"
