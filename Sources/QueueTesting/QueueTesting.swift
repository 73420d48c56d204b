// QueueTesting: the deterministic test harness for AsyncQueue.
//
// This module is a placeholder until the controllable executor lands (issue #3): it re-exports
// AsyncQueue so test suites can already depend on the product name they will keep using.
@_exported import AsyncQueue
