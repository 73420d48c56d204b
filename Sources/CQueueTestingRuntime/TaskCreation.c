#include "CQueueTestingRuntime.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Gives tasks created on a controlled run's driver thread the harness's task-executor preference.
//
// Why: the runtime lets a task without a preference leave an actor inline (`swift_task_switch`
// takes its fast path only when the running context has no task executor, and a default actor's
// drain takes the drained task's preference as the context's). Such a hop is then no job, and no
// scheduling point, although on real threads another thread may run between the two sides of
// it. Structured children inherit the root's preference; an unstructured `Task {}` or
// `Task.detached {}` inherits none, and the runtime has no API to give one to a task after its
// creation (`swift_task_pushTaskExecutorPreference` acts on the running task only).
//
// How: code compiled into the test binary creates every task through `swift_task_create`. This
// file defines that symbol, weakly: in an executable linked against the shared concurrency
// runtime, the executable's own definition is the one its code binds to, and it forwards to the
// runtime's, adding an "initial task executor" option record (the one
// `Task(executorPreference:)` passes) while the calling thread drives a run and the task has no
// preference of its own. Linked with a static runtime, the runtime's strong definition wins and
// nothing changes: the run then reports such tasks as before (`RunResult.inlineHopTasks`).

// The runtime's task-creation option record header, and the record that carries an unowned
// task-executor reference (kind 5, `InitialTaskExecutorUnowned`).
typedef struct QTTaskOptionRecord {
  size_t flags;
  struct QTTaskOptionRecord *parent;
} QTTaskOptionRecord;

typedef struct {
  QTTaskOptionRecord header;
  uintptr_t identity;
  uintptr_t implementation;
} QTInitialTaskExecutorRecord;

typedef struct {
  void *task;
  void *context;
} QTTaskAndContext;

typedef __attribute__((swiftcall)) QTTaskAndContext (*QTTaskCreate)(
    size_t flags, QTTaskOptionRecord *options, const void *resultType, void *function, void *context);

enum {
  QTOptionTaskGroup = 1,
  QTOptionAsyncLet = 2,
  QTOptionAsyncLetWithBuffer = 3,
  QTOptionInitialTaskExecutorUnowned = 5,
  QTOptionInitialTaskExecutorOwned = 6,
  QTOptionRunInline = 255,
  QTCreateIsChildTask = 1 << 8,
};

// The preference to give, set on the driver thread for the length of a run (0: none). Read at
// every task creation: the initial-exec model reads it without a call into the dynamic linker
// (this code is linked into the test executable, or a library loaded with it).
static _Thread_local uintptr_t preferredIdentity __attribute__((tls_model("initial-exec")));
static _Thread_local uintptr_t preferredImplementation __attribute__((tls_model("initial-exec")));

__attribute__((weak, swiftcall)) QTTaskAndContext swift_task_create(
    size_t flags, QTTaskOptionRecord *options, const void *resultType, void *function, void *context);

static QTTaskCreate runtimeTaskCreate;
static pthread_once_t runtimeTaskCreateOnce = PTHREAD_ONCE_INIT;
static int interposed;

static void findRuntimeTaskCreate(void) {
  void *runtime = dlopen("libswift_Concurrency.so", RTLD_LAZY | RTLD_NOLOAD);
  void *found = runtime ? dlsym(runtime, "swift_task_create") : NULL;
  if (!found) found = dlsym(RTLD_NEXT, "swift_task_create");
  if (!found || found == (void *)&swift_task_create) {
    fprintf(stderr, "QueueTesting: the concurrency runtime's swift_task_create was not found\n");
    abort();
  }
  runtimeTaskCreate = (QTTaskCreate)found;
}

// Whether the task needs a preference: not a structured child (it inherits its parent's), not
// one that names a preference of its own.
static int wantsPreference(size_t flags, QTTaskOptionRecord *options) {
  if (flags & QTCreateIsChildTask) return 0;
  for (QTTaskOptionRecord *option = options; option; option = option->parent) {
    switch ((unsigned char)option->flags) {
    case QTOptionTaskGroup:
    case QTOptionAsyncLet:
    case QTOptionAsyncLetWithBuffer:
    case QTOptionInitialTaskExecutorUnowned:
    case QTOptionInitialTaskExecutorOwned:
    case QTOptionRunInline:
      return 0;
    default:
      break;
    }
  }
  return 1;
}

__attribute__((weak, swiftcall)) QTTaskAndContext swift_task_create(
    size_t flags, QTTaskOptionRecord *options, const void *resultType, void *function, void *context) {
  pthread_once(&runtimeTaskCreateOnce, findRuntimeTaskCreate);
  __atomic_store_n(&interposed, 1, __ATOMIC_RELAXED);
  if (preferredIdentity == 0 || !wantsPreference(flags, options)) {
    return runtimeTaskCreate(flags, options, resultType, function, context);
  }
  QTInitialTaskExecutorRecord preference = {
      {QTOptionInitialTaskExecutorUnowned, options}, preferredIdentity, preferredImplementation};
  return runtimeTaskCreate(flags, &preference.header, resultType, function, context);
}

void qt_prefer_task_executor_for_new_tasks(uintptr_t identity, uintptr_t implementation) {
  preferredIdentity = identity;
  preferredImplementation = implementation;
}

bool qt_task_creation_is_interposed(void) {
  return __atomic_load_n(&interposed, __ATOMIC_RELAXED) != 0;
}

#else

void qt_prefer_task_executor_for_new_tasks(uintptr_t identity, uintptr_t implementation) {
  (void)identity;
  (void)implementation;
}

bool qt_task_creation_is_interposed(void) { return false; }

#endif
