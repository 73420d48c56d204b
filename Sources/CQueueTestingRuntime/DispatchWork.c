#include "CQueueTestingRuntime.h"
#include "OutsideWorkCounts.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

// Work the run hands to Dispatch queues, one source of outside work (see `OutsideWorkCounts.c`):
// the test binary defines, weakly, the Dispatch entry points that submit work (the Swift
// overlay's `DispatchQueue.async`, `asyncAfter`, `DispatchGroup.notify` and Foundation call them).
// On the run's thread, during a run, each wraps the work so that it counts down once it has run,
// and hands it to Dispatch's own function; anywhere else it hands it over untouched.

typedef struct dispatch_queue_s *qt_queue;
typedef struct dispatch_group_s *qt_group;
typedef unsigned long long qt_time;
typedef void (*qt_function)(void *);

// A block's layout, as the blocks ABI fixes it: enough to call one without compiler support.
typedef struct {
  void *isa;
  int flags;
  int reserved;
  void (*invoke)(void *block);
} QTBlock;

static struct {
  void (*async)(qt_queue, void *);
  void (*asyncF)(qt_queue, void *, qt_function);
  void (*after)(qt_time, qt_queue, void *);
  void (*afterF)(qt_time, qt_queue, void *, qt_function);
  void (*barrierAsync)(qt_queue, void *);
  void (*barrierAsyncF)(qt_queue, void *, qt_function);
  void (*groupAsync)(qt_group, qt_queue, void *);
  void (*groupAsyncF)(qt_group, qt_queue, void *, qt_function);
  void (*groupNotify)(qt_group, qt_queue, void *);
  void (*groupNotifyF)(qt_group, qt_queue, void *, qt_function);
  void *(*blockCopy)(const void *);
  void (*blockRelease)(const void *);
} real;
static pthread_once_t realOnce = PTHREAD_ONCE_INIT;

static void findReal(void) {
  void *dispatch = dlopen("libdispatch.so", RTLD_LAZY | RTLD_NOLOAD);
  real.async = qt_find_real(dispatch, "dispatch_async");
  real.asyncF = qt_find_real(dispatch, "dispatch_async_f");
  real.after = qt_find_real(dispatch, "dispatch_after");
  real.afterF = qt_find_real(dispatch, "dispatch_after_f");
  real.barrierAsync = qt_find_real(dispatch, "dispatch_barrier_async");
  real.barrierAsyncF = qt_find_real(dispatch, "dispatch_barrier_async_f");
  real.groupAsync = qt_find_real(dispatch, "dispatch_group_async");
  real.groupAsyncF = qt_find_real(dispatch, "dispatch_group_async_f");
  real.groupNotify = qt_find_real(dispatch, "dispatch_group_notify");
  real.groupNotifyF = qt_find_real(dispatch, "dispatch_group_notify_f");
  real.blockCopy = qt_find_real(NULL, "_Block_copy");
  real.blockRelease = qt_find_real(NULL, "_Block_release");
}

typedef struct {
  void *block;
  qt_function function;
  void *context;
  unsigned long long run;
} QTTrackedWork;

static void runTracked(void *opaque) {
  QTTrackedWork *work = opaque;
  if (work->block) {
    ((QTBlock *)work->block)->invoke(work->block);
    real.blockRelease(work->block);
  } else {
    work->function(work->context);
  }
  // Work of an earlier run counts for nothing now.
  qt_outside_work_done(work->run);
  free(work);
}

static QTTrackedWork *track(void *block, qt_function function, void *context) {
  QTTrackedWork *work = malloc(sizeof(QTTrackedWork));
  if (!work) abort();
  work->block = block ? real.blockCopy(block) : NULL;
  work->function = function;
  work->context = context;
  work->run = qt_outside_work_begun();
  __atomic_add_fetch(&qt_work_handed_to_dispatch, 1, __ATOMIC_RELAXED);
  return work;
}

__attribute__((weak)) void dispatch_async(qt_queue queue, void *block) {
  pthread_once(&realOnce, findReal);
  if (!qt_counting) return real.async(queue, block);
  qt_inside_dispatch = 1;
  real.asyncF(queue, track(block, NULL, NULL), runTracked);
  qt_inside_dispatch = 0;
}

__attribute__((weak)) void dispatch_async_f(qt_queue queue, void *context, qt_function function) {
  pthread_once(&realOnce, findReal);
  __atomic_store_n(&qt_dispatch_reached, 1, __ATOMIC_RELAXED);
  if (!qt_counting) return real.asyncF(queue, context, function);
  qt_inside_dispatch = 1;
  real.asyncF(queue, track(NULL, function, context), runTracked);
  qt_inside_dispatch = 0;
}

// A deadline a run's job computed from a clock read that follows virtual time is moved back to
// real time here (see `VirtualTimeReads.c`), so that Dispatch fires it when the job meant.
// Dispatch also reads the clock inside the call (to tell a deadline already past), on this
// thread: that read must be real too, so reads follow real time for the length of the call.
// The work is a block, or a function and its context.
static void after(qt_time when, qt_queue queue, void *block, void *context, qt_function function) {
  pthread_once(&realOnce, findReal);
  when = qt_dispatch_time_to_real(when);
  bool shifting = qt_virtual_time_pause();
  if (!qt_counting) {
    if (block) {
      real.after(when, queue, block);
    } else {
      real.afterF(when, queue, context, function);
    }
  } else {
    qt_inside_dispatch = 1;
    real.afterF(when, queue, track(block, function, context), runTracked);
    qt_inside_dispatch = 0;
  }
  qt_virtual_time_reads(shifting);
}

__attribute__((weak)) void dispatch_after(qt_time when, qt_queue queue, void *block) {
  after(when, queue, block, NULL, NULL);
}

__attribute__((weak)) void dispatch_after_f(qt_time when, qt_queue queue, void *context, qt_function function) {
  after(when, queue, NULL, context, function);
}

__attribute__((weak)) void dispatch_barrier_async(qt_queue queue, void *block) {
  pthread_once(&realOnce, findReal);
  if (!qt_counting) return real.barrierAsync(queue, block);
  qt_inside_dispatch = 1;
  real.barrierAsyncF(queue, track(block, NULL, NULL), runTracked);
  qt_inside_dispatch = 0;
}

__attribute__((weak)) void dispatch_group_async(qt_group group, qt_queue queue, void *block) {
  pthread_once(&realOnce, findReal);
  if (!qt_counting) return real.groupAsync(group, queue, block);
  // What Dispatch itself does: the group counts the work from now until it has run.
  qt_inside_dispatch = 1;
  real.groupAsyncF(group, queue, track(block, NULL, NULL), runTracked);
  qt_inside_dispatch = 0;
}

__attribute__((weak)) void dispatch_group_notify(qt_group group, qt_queue queue, void *block) {
  pthread_once(&realOnce, findReal);
  if (!qt_counting) return real.groupNotify(group, queue, block);
  qt_inside_dispatch = 1;
  real.groupNotifyF(group, queue, track(block, NULL, NULL), runTracked);
  qt_inside_dispatch = 0;
}

#endif
