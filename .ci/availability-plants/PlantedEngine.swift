// Planted into QueueTestingEngine by .ci/availability.sh: the check must report lines 6, 13, 14
// and 19, and nothing else.
@_spi(ExperimentalCustomExecutors) import _Concurrency

func plantedEngineUse() -> Bool {
  RunDriver.shared.isDriverThread
}

// Covered through the package's availability macro (Package.swift): the check must read it.
@available(ExecutorHooks 1.0, *)
func plantedEngineCovered() -> Bool { RunDriver.shared.isDriverThread }

enum PlantedFactory: ExecutorFactory {
  static var mainExecutor: any MainExecutor { fatalError() }
  static var defaultExecutor: any TaskExecutor { fatalError() }
}

@_silgen_name("swift_task_plantedMadeUpEntryPoint")
func plantedMadeUpEntryPoint()
