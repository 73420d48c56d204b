#include "CQueueTestingRuntime.h"
#include "OutsideWorkCounts.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Work a controlled run hands outside the harness, counted until it is done.
//
// Why: a run's virtual time jumps to the next timer when nothing the harness controls can run.
// Work on a Dispatch queue, a thread the run started or woke, runs in real time beside the run; a
// callback due in a millisecond that resumes a task must not lose the race to a 200-millisecond
// virtual sleep, which it wins on real threads. The run waits in real time before such a jump
// while work it handed out is not done (Go's `testing/synctest` rule: time moves only when
// everything is durably blocked). Pure Swift-concurrency code hands out nothing, and its jumps
// stay instant.
//
// Each source is a file of weak definitions of the calls that hand work out, in the test binary:
// on the run's thread, during a run, each counts what it hands out and passes the call on to the
// real definition; anywhere else it passes the call on untouched. A static link of a library that
// defines the same calls lets that definition win, and the run then only knows of outside work
// once it comes back.

_Thread_local int qt_counting __attribute__((tls_model("initial-exec")));
_Thread_local int qt_inside_dispatch __attribute__((tls_model("initial-exec")));
long qt_work_handed_to_dispatch;
long qt_threads_started;
long qt_threads_woken;
int qt_dispatch_reached;
int qt_thread_start_reached;
int qt_wake_reached;

// The run's number (high 32 bits) and its work not done yet (low 32 bits), in one word: work of
// an earlier run, finishing late, must not count down a later run's, and a separate number would
// leave a moment between checking it and counting down.
static unsigned long long runAndOutstanding;
static void (*workDone)(void);

void *qt_find_real(void *library, const char *name) {
  void *found = library ? dlsym(library, name) : NULL;
  if (!found) found = dlsym(RTLD_NEXT, name);
  if (!found) {
    fprintf(stderr, "QueueTesting: %s was not found\n", name);
    abort();
  }
  return found;
}

unsigned long long qt_outside_work_begun(void) {
  return __atomic_add_fetch(&runAndOutstanding, 1, __ATOMIC_ACQ_REL) >> 32;
}

void qt_outside_work_done(unsigned long long run) {
  unsigned long long seen = __atomic_load_n(&runAndOutstanding, __ATOMIC_ACQUIRE);
  while ((seen >> 32) == run && (seen & 0xFFFFFFFFull) > 0) {
    if (__atomic_compare_exchange_n(&runAndOutstanding, &seen, seen - 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      void (*done)(void) = __atomic_load_n(&workDone, __ATOMIC_ACQUIRE);
      if (done) done();
      return;
    }
  }
}

// Whether a call reached each source's definitions: another definition may take the calls first
// (the thread sanitizer's runtime, linked into the binary, intercepts the same functions, and its
// strong definitions win over these weak ones at link time, where no address tells them apart).
static int countingWorks;
static pthread_once_t probeOnce = PTHREAD_ONCE_INIT;

typedef struct dispatch_queue_s *qt_probe_queue;
extern qt_probe_queue dispatch_get_global_queue(long identifier, unsigned long flags);
extern void dispatch_async_f(qt_probe_queue queue, void *context, void (*function)(void *));

static void noWork(void *context) { (void)context; }
static void *noThreadWork(void *argument) { return argument; }

static void probe(void) {
  dispatch_async_f(dispatch_get_global_queue(0, 0), NULL, noWork);
  pthread_t thread;
  if (pthread_create(&thread, NULL, noThreadWork, NULL) == 0) pthread_join(thread, NULL);
  pthread_cond_t condition = PTHREAD_COND_INITIALIZER;
  pthread_cond_signal(&condition);
  pthread_cond_destroy(&condition);
  countingWorks = __atomic_load_n(&qt_dispatch_reached, __ATOMIC_RELAXED)
    && __atomic_load_n(&qt_thread_start_reached, __ATOMIC_RELAXED) && __atomic_load_n(&qt_wake_reached, __ATOMIC_RELAXED);
}

bool qt_outside_work_is_counted(void) {
  pthread_once(&probeOnce, probe);
  return countingWorks;
}

void qt_count_outside_work(bool on, void (*_Nullable done)(void)) {
  if (on) {
    // A new run, with nothing outstanding.
    unsigned long long seen = __atomic_load_n(&runAndOutstanding, __ATOMIC_ACQUIRE);
    unsigned long long next;
    do {
      next = ((seen >> 32) + 1) << 32;
    } while (!__atomic_compare_exchange_n(&runAndOutstanding, &seen, next, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    __atomic_store_n(&workDone, done, __ATOMIC_RELEASE);
    __atomic_store_n(&qt_work_handed_to_dispatch, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&qt_threads_started, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&qt_threads_woken, 0, __ATOMIC_RELAXED);
  }
  qt_counting = on;
}

void qt_count_outside_work_on_this_thread(bool on) { qt_counting = on; }

long qt_outstanding_outside_work(void) {
  return (long)(__atomic_load_n(&runAndOutstanding, __ATOMIC_ACQUIRE) & 0xFFFFFFFFull);
}

long qt_dispatch_work_handed_out(void) { return __atomic_load_n(&qt_work_handed_to_dispatch, __ATOMIC_RELAXED); }

long qt_threads_started_by_run(void) { return __atomic_load_n(&qt_threads_started, __ATOMIC_RELAXED); }

long qt_threads_woken_by_run(void) { return __atomic_load_n(&qt_threads_woken, __ATOMIC_RELAXED); }

#else

void qt_count_outside_work(bool on, void (*_Nullable done)(void)) {
  (void)on;
  (void)done;
}

void qt_count_outside_work_on_this_thread(bool on) { (void)on; }

long qt_outstanding_outside_work(void) { return 0; }

long qt_dispatch_work_handed_out(void) { return 0; }

long qt_threads_started_by_run(void) { return 0; }

long qt_threads_woken_by_run(void) { return 0; }

bool qt_outside_work_is_counted(void) { return false; }

#endif
