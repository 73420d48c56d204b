#ifndef C_QUEUE_TESTING_RUNTIME_H
#define C_QUEUE_TESTING_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

/// The identity of the serial executor the calling thread is running a job on: the executor
/// object, or 0 for the generic executor (a thread that runs no job on a serial executor).
///
/// Read through the concurrency runtime's `swift_task_getCurrentExecutor`, which the standard
/// library binds for its own isolation checks; no public API returns it. QueueTesting reads it
/// only to name where work outside the harness ran.
uintptr_t qt_current_serial_executor_identity(void);

/// Makes tasks created on the calling thread from now on, without a task-executor preference of
/// their own and not structured children, prefer the task executor `identity`/`implementation`
/// (the two words of an `UnownedTaskExecutor`); `0, 0` stops. Only where the test binary's
/// definition of the runtime's task-creation entry point is the one its code calls (Linux, with
/// the shared concurrency runtime): see `TaskCreation.c`.
void qt_prefer_task_executor_for_new_tasks(uintptr_t identity, uintptr_t implementation);

/// Whether a task was created through that definition in this process.
bool qt_task_creation_is_interposed(void);

#endif
