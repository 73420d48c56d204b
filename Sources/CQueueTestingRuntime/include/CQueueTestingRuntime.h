#ifndef C_QUEUE_TESTING_RUNTIME_H
#define C_QUEUE_TESTING_RUNTIME_H

#include <stdint.h>

/// The identity of the serial executor the calling thread is running a job on: the executor
/// object, or 0 for the generic executor (a thread that runs no job on a serial executor).
///
/// Read through the concurrency runtime's `swift_task_getCurrentExecutor`, which the standard
/// library binds for its own isolation checks; no public API returns it. QueueTesting reads it
/// only to name where work outside the harness ran.
uintptr_t qt_current_serial_executor_identity(void);

#endif
