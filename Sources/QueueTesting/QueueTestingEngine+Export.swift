// QueueTesting is the engine plus its Swift Testing and XCTest faces: `import QueueTesting` gives
// both, as it always has. What a strategy is shown (the runnable jobs, where the run stands) is
// the engine's `Strategies` SPI: a strategy's author imports QueueTesting with
// `@_spi(Strategies)`; a test author never needs it.
@_spi(Strategies) @_exported import QueueTestingEngine
