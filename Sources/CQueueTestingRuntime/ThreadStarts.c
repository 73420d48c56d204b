#include "CQueueTestingRuntime.h"
#include "OutsideWorkCounts.h"

#if defined(__linux__)
#include <pthread.h>
#include <stdlib.h>

// Threads the run's code starts (a `Thread`, an event loop's threads), counted as work not done
// until they end: a thread that runs for good keeps every later jump of the run waiting as long
// as a real sleep would (up to the jump and the timeout).
typedef struct {
  void *(*start)(void *);
  void *argument;
  unsigned long long run;
} QTTrackedThread;

static int (*realThreadCreate)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
static pthread_once_t threadCreateOnce = PTHREAD_ONCE_INIT;

static void findThreadCreate(void) {
  realThreadCreate = qt_find_real(NULL, "pthread_create");
}

static void *runTrackedThread(void *opaque) {
  QTTrackedThread thread = *(QTTrackedThread *)opaque;
  free(opaque);
  void *result = thread.start(thread.argument);
  qt_outside_work_done(thread.run);
  return result;
}

__attribute__((weak)) int pthread_create(
    pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
  pthread_once(&threadCreateOnce, findThreadCreate);
  __atomic_store_n(&qt_thread_start_reached, 1, __ATOMIC_RELAXED);
  if (!qt_counting || qt_inside_dispatch) return realThreadCreate(thread, attributes, start, argument);
  QTTrackedThread *tracked = malloc(sizeof(QTTrackedThread));
  if (!tracked) return realThreadCreate(thread, attributes, start, argument);
  tracked->start = start;
  tracked->argument = argument;
  tracked->run = qt_outside_work_begun();
  __atomic_add_fetch(&qt_threads_started, 1, __ATOMIC_RELAXED);
  int status = realThreadCreate(thread, attributes, runTrackedThread, tracked);
  if (status != 0) {
    qt_outside_work_done(tracked->run);
    free(tracked);
  }
  return status;
}

#endif
