#include "CQueueTestingRuntime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// Other tools' executor hooks, as the concurrency runtime exports them. Only code available from
// macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4 and visionOS 26.4 on calls this file (the harness's
// executors, installed through the executor SPI, and `RunDriver`): the hooks are looked up by name
// at that point, so no older runtime is asked for them.
//
// swift-concurrency-extras' `withMainSerialExecutor` sets `swift_task_enqueueGlobal_hook`, so that
// every job the runtime would hand to the global executor goes to the main actor's serial queue
// instead, in order. Under a controlled run, the run's tasks prefer the harness's task executor,
// and the runtime enqueues their jobs there directly, past that hook: the harness calls the hook
// itself for them, so the hook's effect holds as it does on real threads. The other hooks (delayed
// and main-executor enqueues) it cannot honour; a run that sees one set says so.

typedef __attribute__((swiftcall)) void (*QTEnqueueGlobalOriginal)(void *job);
typedef __attribute__((swiftcall)) void (*QTEnqueueGlobalHook)(void *job, QTEnqueueGlobalOriginal original);

static QTEnqueueGlobalHook *enqueueGlobalHook;
static void **otherHooks[3];
static const char *otherHookNames[3] = {
    "swift_task_enqueueGlobalWithDelay_hook",
    "swift_task_enqueueGlobalWithDeadline_hook",
    "swift_task_enqueueMainExecutor_hook",
};
static void (*enqueueUnhooked)(void *job);
#if defined(__linux__)
// Read at every global enqueue that finds a hook: no call into the dynamic linker for it.
static _Thread_local int insideHook __attribute__((tls_model("initial-exec")));
#else
static _Thread_local int insideHook;
#endif
static pthread_once_t findOnce = PTHREAD_ONCE_INIT;

static void findHooks(void) {
  __atomic_store_n(&enqueueGlobalHook, (QTEnqueueGlobalHook *)dlsym(RTLD_DEFAULT, "swift_task_enqueueGlobal_hook"),
                   __ATOMIC_RELEASE);
  for (int index = 0; index < 3; index++) {
    __atomic_store_n(&otherHooks[index], (void **)dlsym(RTLD_DEFAULT, otherHookNames[index]), __ATOMIC_RELEASE);
  }
}

// What the hook calls to hand a job on as if there were no hook.
static __attribute__((swiftcall)) void originalEnqueue(void *job) {
  __atomic_load_n(&enqueueUnhooked, __ATOMIC_ACQUIRE)(job);
}

void qt_install_executor_hooks(void (*unhooked)(void *job)) {
  pthread_once(&findOnce, findHooks);
  __atomic_store_n(&enqueueUnhooked, unhooked, __ATOMIC_RELEASE);
}

bool qt_enqueue_through_global_hook(void *job) {
  // The hook's own `original` comes back here: that job goes on without the hook.
  // Every global job of a run comes here: the common case (no hook) reads no thread-local.
  QTEnqueueGlobalHook *address = __atomic_load_n(&enqueueGlobalHook, __ATOMIC_ACQUIRE);
  if (!address) return false;
  QTEnqueueGlobalHook hook = __atomic_load_n(address, __ATOMIC_RELAXED);
  if (!hook || insideHook) return false;
  insideHook = 1;
  hook(job, originalEnqueue);
  insideHook = 0;
  return true;
}

bool qt_global_hook_is_set(void) {
  QTEnqueueGlobalHook *address = __atomic_load_n(&enqueueGlobalHook, __ATOMIC_ACQUIRE);
  return address && __atomic_load_n(address, __ATOMIC_RELAXED) && !insideHook;
}

const char *qt_unhonoured_executor_hook(void) {
  for (int index = 0; index < 3; index++) {
    void **address = __atomic_load_n(&otherHooks[index], __ATOMIC_ACQUIRE);
    if (address && __atomic_load_n(address, __ATOMIC_RELAXED)) return otherHookNames[index];
  }
  return NULL;
}
