// QueueTesting is the engine plus its Swift Testing and XCTest faces: `import QueueTesting` gives
// both, as it always has.
@_exported import QueueTestingEngine
