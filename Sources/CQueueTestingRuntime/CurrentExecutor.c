#include "CQueueTestingRuntime.h"

// The runtime's two-word executor reference (`SerialExecutorRef`): the executor object, then
// its witness table with the executor kind in the low bits. Returned in registers under the
// Swift calling convention, which clang's `swiftcall` attribute follows.
typedef struct {
  uintptr_t identity;
  uintptr_t implementation;
} QTSerialExecutorRef;

__attribute__((swiftcall)) extern QTSerialExecutorRef swift_task_getCurrentExecutor(void);

uintptr_t qt_current_serial_executor_identity(void) {
  return swift_task_getCurrentExecutor().identity;
}
