// Planted into QueueTestingEngine by .ci/availability.sh: the check must report lines 6, 12, 13
// and 18, and nothing else.
@_spi(ExperimentalCustomExecutors) import _Concurrency

func plantedEngineUse() -> Bool {
  RunDriver.shared.isDriverThread
}

@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
func plantedEngineCovered() -> Bool { RunDriver.shared.isDriverThread }

enum PlantedFactory: ExecutorFactory {
  static var mainExecutor: any MainExecutor { fatalError() }
  static var defaultExecutor: any TaskExecutor { fatalError() }
}

@_silgen_name("swift_task_plantedMadeUpEntryPoint")
func plantedMadeUpEntryPoint()
