#include "CQueueTestingRuntime.h"
#include "OutsideWorkCounts.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>

// Threads the run's code sets going through Dispatch's own primitives rather than through a
// queue (`DispatchWork.c` counts the work handed to queues): a `DispatchSemaphore` signalled, a
// `DispatchGroup` left, a Dispatch source or queue resumed, a source's data merged. Dispatch may
// do each in user space or through a futex of its own, with no call `ThreadWakeUps.c` sees:
//
// - A semaphore's signal posts its POSIX semaphore only when a thread already waits. A signal that
//   comes first lets the thread that waits next go on without ever blocking (a worker still busy
//   with its last request when the run signals it), so the post alone misses it.
// - A group wakes the threads in its `wait()` through a futex; its `notify` blocks are Dispatch
//   work, counted as such.
// - A source's handler, or a resumed queue's work, is added to its target queue; when that queue
//   is already running (busy with an earlier item), no thread is woken for it, and it runs when
//   the item ends. A source never says it is done.
//
// Each counts as waking a thread, whether or not one waits yet, as a condition signal does: from
// then on, virtual time moves no faster than real time. A timer set on a resumed source needs no
// such count: Dispatch re-arms it on its manager thread, which it wakes by writing an eventfd
// (counted in `ThreadWakeUps.c`).

typedef struct dispatch_object_s *qt_object;
typedef unsigned long long qt_time;

static struct {
  long (*semaphoreSignal)(qt_object);
  void (*groupLeave)(qt_object);
  void (*resume)(qt_object);
  void (*activate)(qt_object);
  void (*mergeData)(qt_object, uintptr_t);
  void (*setTimer)(qt_object, qt_time, uint64_t, uint64_t);
} realDispatchWake;
static pthread_once_t dispatchWakeOnce = PTHREAD_ONCE_INIT;

// Found once one of them is called, when Dispatch is loaded.
static void findDispatchWake(void) {
  void *dispatch = dlopen("libdispatch.so", RTLD_LAZY | RTLD_NOLOAD);
  realDispatchWake.semaphoreSignal = qt_find_real(dispatch, "dispatch_semaphore_signal");
  realDispatchWake.groupLeave = qt_find_real(dispatch, "dispatch_group_leave");
  realDispatchWake.resume = qt_find_real(dispatch, "dispatch_resume");
  realDispatchWake.activate = qt_find_real(dispatch, "dispatch_activate");
  realDispatchWake.mergeData = qt_find_real(dispatch, "dispatch_source_merge_data");
  realDispatchWake.setTimer = qt_find_real(dispatch, "dispatch_source_set_timer");
}

__attribute__((weak)) long dispatch_semaphore_signal(qt_object semaphore) {
  pthread_once(&dispatchWakeOnce, findDispatchWake);
  qt_note_wake();
  return realDispatchWake.semaphoreSignal(semaphore);
}

__attribute__((weak)) void dispatch_group_leave(qt_object group) {
  pthread_once(&dispatchWakeOnce, findDispatchWake);
  qt_note_wake();
  realDispatchWake.groupLeave(group);
}

// A source starts watching (or a queue runs the work held back) once resumed or activated.
__attribute__((weak)) void dispatch_resume(qt_object object) {
  pthread_once(&dispatchWakeOnce, findDispatchWake);
  qt_note_wake();
  realDispatchWake.resume(object);
}

__attribute__((weak)) void dispatch_activate(qt_object object) {
  pthread_once(&dispatchWakeOnce, findDispatchWake);
  qt_note_wake();
  realDispatchWake.activate(object);
}

__attribute__((weak)) void dispatch_source_merge_data(qt_object source, uintptr_t value) {
  pthread_once(&dispatchWakeOnce, findDispatchWake);
  qt_note_wake();
  realDispatchWake.mergeData(source, value);
}

// The timer's start, computed by a job from a clock read that follows virtual time, goes back to
// real time, as a deadline handed to `dispatch_after` does (`DispatchWork.c`); a start of "now"
// Dispatch reads itself, inside the call, which must then read real time.
__attribute__((weak)) void dispatch_source_set_timer(qt_object source, qt_time start, uint64_t interval, uint64_t leeway) {
  pthread_once(&dispatchWakeOnce, findDispatchWake);
  start = qt_dispatch_time_to_real(start);
  bool shifting = qt_virtual_time_pause();
  realDispatchWake.setTimer(source, start, interval, leeway);
  qt_virtual_time_reads(shifting);
}

#endif
