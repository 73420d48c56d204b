#include "CQueueTestingRuntime.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

// Time read by a run's jobs follows the run's virtual time (Go's `testing/synctest` does the same
// for `time.Now()` inside its bubble).
//
// Why: a run's `Task.sleep` ends in virtual time, which jumps to the next timer when nothing can
// run; the clocks code reads (`ContinuousClock.now`, `Date()`, `DispatchTime.now()`, a tracing
// library's span timestamps) are real. A body that sleeps 100 ms and measures the sleep saw
// 0.1 ms, and a span that must last 100 ms lasted none: correct code failed.
//
// How: the test binary defines, weakly, the C calls every clock read ends in (`clock_gettime`,
// `gettimeofday`, `time`): the Swift runtime's clocks, Foundation's `Date` and Dispatch's `now`
// all call them through the dynamic linker, which binds them here first. On the run's thread,
// while one of the run's jobs runs, a read returns the real time plus the virtual time the run
// skipped: the time its jumps moved on beyond the real time the run spent waiting before them
// (a run that waited for threads outside it paced its clock by real time, and skipped nothing
// then). So a read never goes back, a sleep of 100 ms measures at least 100 ms, and time between
// two reads in one job passes as it does on real threads. Anywhere else, and between jobs (the
// driver's own bookkeeping), reads are real. A deadline the run's job hands to Dispatch
// (`dispatch_after`, which `asyncAfter` calls) is moved back by the skipped time
// (`OutsideWorkCounts.c`), so Dispatch, which reads real time, fires it when the job meant.

typedef int (*QTClockGetTime)(clockid_t, struct timespec *);
typedef int (*QTGetTimeOfDay)(struct timeval *, void *);
typedef time_t (*QTTime)(time_t *);

static QTClockGetTime realClockGetTime;
static QTGetTimeOfDay realGetTimeOfDay;
static QTTime realTime;
static pthread_once_t realOnce = PTHREAD_ONCE_INIT;

static void *findCall(const char *name) {
  void *found = dlsym(RTLD_NEXT, name);
  if (!found) {
    fprintf(stderr, "QueueTesting: libc's %s was not found\n", name);
    abort();
  }
  return found;
}

static void findReal(void) {
  realClockGetTime = (QTClockGetTime)findCall("clock_gettime");
  realGetTimeOfDay = (QTGetTimeOfDay)findCall("gettimeofday");
  realTime = (QTTime)findCall("time");
}

// Set on the run's thread while one of its jobs runs.
static _Thread_local int shifting __attribute__((tls_model("initial-exec")));
// Nanoseconds the active run's virtual time skipped (one run at a time in a process).
static unsigned long long skipped;
// Whether a read reached this file since the probe began (see `qt_virtual_time_is_read`).
static _Thread_local int probed __attribute__((tls_model("initial-exec")));

static int followsVirtualTime(clockid_t clock) {
  switch (clock) {
  case CLOCK_REALTIME:
  case CLOCK_MONOTONIC:
  case CLOCK_MONOTONIC_RAW:
  case CLOCK_REALTIME_COARSE:
  case CLOCK_MONOTONIC_COARSE:
  case CLOCK_BOOTTIME:
    return 1;
  default:
    return 0;
  }
}

static void shift(struct timespec *time, unsigned long long nanoseconds) {
  unsigned long long total = (unsigned long long)time->tv_nsec + nanoseconds % 1000000000ull;
  time->tv_sec += (time_t)(nanoseconds / 1000000000ull + total / 1000000000ull);
  time->tv_nsec = (long)(total % 1000000000ull);
}

__attribute__((weak)) int clock_gettime(clockid_t clock, struct timespec *time) {
  pthread_once(&realOnce, findReal);
  int result = realClockGetTime(clock, time);
  probed = 1;
  if (result == 0 && shifting && followsVirtualTime(clock)) {
    shift(time, __atomic_load_n(&skipped, __ATOMIC_RELAXED));
  }
  return result;
}

__attribute__((weak)) int gettimeofday(struct timeval *restrict time, void *restrict zone) {
  pthread_once(&realOnce, findReal);
  int result = realGetTimeOfDay(time, zone);
  if (result == 0 && shifting) {
    unsigned long long microseconds = __atomic_load_n(&skipped, __ATOMIC_RELAXED) / 1000ull;
    unsigned long long total = (unsigned long long)time->tv_usec + microseconds % 1000000ull;
    time->tv_sec += (time_t)(microseconds / 1000000ull + total / 1000000ull);
    time->tv_usec = (suseconds_t)(total % 1000000ull);
  }
  return result;
}

__attribute__((weak)) time_t time(time_t *stored) {
  pthread_once(&realOnce, findReal);
  time_t now = realTime(NULL);
  if (shifting && now != (time_t)-1) {
    now += (time_t)(__atomic_load_n(&skipped, __ATOMIC_RELAXED) / 1000000000ull);
  }
  if (stored) *stored = now;
  return now;
}

void qt_virtual_time_begin(void) { __atomic_store_n(&skipped, 0, __ATOMIC_RELAXED); }

void qt_virtual_time_reads(bool on) { shifting = on ? 1 : 0; }

void qt_virtual_time_advance(unsigned long long jump, unsigned long long paced) {
  if (jump > paced) __atomic_add_fetch(&skipped, jump - paced, __ATOMIC_RELAXED);
}

unsigned long long qt_real_monotonic_nanoseconds(void) {
  pthread_once(&realOnce, findReal);
  struct timespec now;
  realClockGetTime(CLOCK_MONOTONIC, &now);
  return (unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec;
}

bool qt_virtual_time_is_read(void) {
  // Called as other code calls it, through the dynamic linker: under the thread sanitizer its
  // runtime's definition is the one bound, and this file's is never reached.
  QTClockGetTime bound = (QTClockGetTime)dlsym(RTLD_DEFAULT, "clock_gettime");
  if (!bound) return false;
  probed = 0;
  struct timespec now;
  bound(CLOCK_MONOTONIC, &now);
  return probed != 0;
}

// A `dispatch_time_t` is an uptime in nanoseconds, or a monotonic time (bit 62 set), or a wall
// time (the negated nanoseconds since 1970, so the top bit set); 0 and all ones mean now and
// never.
unsigned long long qt_dispatch_time_to_real(unsigned long long when) {
  unsigned long long moved = __atomic_load_n(&skipped, __ATOMIC_RELAXED);
  if (!shifting || moved == 0 || when == 0 || when == ~0ull) return when;
  const unsigned long long monotonicFlag = 1ull << 62;
  if ((long long)when < 0) {
    unsigned long long nanoseconds = (unsigned long long)(-(long long)when);
    nanoseconds = nanoseconds > moved ? nanoseconds - moved : 1;
    return (unsigned long long)(-(long long)nanoseconds);
  }
  unsigned long long flag = when & monotonicFlag;
  unsigned long long nanoseconds = when & ~monotonicFlag;
  nanoseconds = nanoseconds > moved ? nanoseconds - moved : 1;
  return flag | nanoseconds;
}

bool qt_virtual_time_pause(void) {
  bool was = shifting != 0;
  shifting = 0;
  return was;
}

#else

void qt_virtual_time_begin(void) {}

void qt_virtual_time_reads(bool on) { (void)on; }

void qt_virtual_time_advance(unsigned long long jump, unsigned long long paced) {
  (void)jump;
  (void)paced;
}

unsigned long long qt_real_monotonic_nanoseconds(void) { return 0; }

bool qt_virtual_time_is_read(void) { return false; }

unsigned long long qt_dispatch_time_to_real(unsigned long long when) { return when; }

bool qt_virtual_time_pause(void) { return false; }

#endif
