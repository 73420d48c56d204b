#include "CQueueTestingRuntime.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <semaphore.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

// Work a controlled run hands to Dispatch, counted until it has run.
//
// Why: a run's virtual time jumps to the next timer when nothing the harness controls can run.
// Work on a Dispatch queue runs in real time beside the run; a callback due in a millisecond that
// resumes a task must not lose the race to a 200-millisecond virtual sleep, which it wins on real
// threads. The run waits in real time before such a jump while work it handed to Dispatch has not
// run yet (Go's `testing/synctest` rule: time moves only when everything is durably blocked).
// Pure Swift-concurrency code never hands Dispatch anything, and its jumps stay instant.
//
// The test binary defines, weakly, the Dispatch entry points that submit work (the Swift
// overlay's `DispatchQueue.async`, `asyncAfter`, `DispatchGroup.notify` and Foundation call them).
// On the run's thread, during a run, each wraps the work so that it counts down once it has run,
// and hands it to Dispatch's own function; anywhere else it hands it over untouched. As with
// `TaskCreation.c`, a static link of a library that defines them lets that definition win, and
// the run then only knows of outside work once it comes back.

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

static void *find(void *library, const char *name) {
  void *found = library ? dlsym(library, name) : NULL;
  if (!found) found = dlsym(RTLD_NEXT, name);
  if (!found) {
    fprintf(stderr, "QueueTesting: Dispatch's %s was not found\n", name);
    abort();
  }
  return found;
}

static void findReal(void) {
  void *dispatch = dlopen("libdispatch.so", RTLD_LAZY | RTLD_NOLOAD);
  real.async = find(dispatch, "dispatch_async");
  real.asyncF = find(dispatch, "dispatch_async_f");
  real.after = find(dispatch, "dispatch_after");
  real.afterF = find(dispatch, "dispatch_after_f");
  real.barrierAsync = find(dispatch, "dispatch_barrier_async");
  real.barrierAsyncF = find(dispatch, "dispatch_barrier_async_f");
  real.groupAsync = find(dispatch, "dispatch_group_async");
  real.groupAsyncF = find(dispatch, "dispatch_group_async_f");
  real.groupNotify = find(dispatch, "dispatch_group_notify");
  real.groupNotifyF = find(dispatch, "dispatch_group_notify_f");
  real.blockCopy = find(NULL, "_Block_copy");
  real.blockRelease = find(NULL, "_Block_release");
}

static int dispatchReached;
static int threadReached;

// Set on the run's thread for the length of a run (see `qt_track_dispatch_work`).
static _Thread_local int tracking __attribute__((tls_model("initial-exec")));
// Set while this file hands work to Dispatch: threads Dispatch starts for its own pool then are
// Dispatch's, not the run's.
static _Thread_local int insideDispatch __attribute__((tls_model("initial-exec")));
// The run's number (high 32 bits) and its work not run yet (low 32 bits), in one word: work of
// an earlier run, finishing late, must not count down a later run's, and a separate number would
// leave a moment between checking it and counting down.
static unsigned long long runAndOutstanding;
static void (*workRan)(void);
// Work handed over in this run; counted by the run's thread alone.
static long handedOut;

static void countDown(unsigned long long run);

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
  countDown(work->run);
  free(work);
}

static QTTrackedWork *track(void *block, qt_function function, void *context) {
  QTTrackedWork *work = malloc(sizeof(QTTrackedWork));
  if (!work) abort();
  work->block = block ? real.blockCopy(block) : NULL;
  work->function = function;
  work->context = context;
  // Only the run's own thread adds, so the run's number cannot change under it.
  work->run = __atomic_add_fetch(&runAndOutstanding, 1, __ATOMIC_ACQ_REL) >> 32;
  __atomic_add_fetch(&handedOut, 1, __ATOMIC_RELAXED);
  return work;
}

__attribute__((weak)) void dispatch_async(qt_queue queue, void *block) {
  pthread_once(&realOnce, findReal);
  if (!tracking) return real.async(queue, block);
  insideDispatch = 1;
  real.asyncF(queue, track(block, NULL, NULL), runTracked);
  insideDispatch = 0;
}

__attribute__((weak)) void dispatch_async_f(qt_queue queue, void *context, qt_function function) {
  pthread_once(&realOnce, findReal);
  __atomic_store_n(&dispatchReached, 1, __ATOMIC_RELAXED);
  if (!tracking) return real.asyncF(queue, context, function);
  insideDispatch = 1;
  real.asyncF(queue, track(NULL, function, context), runTracked);
  insideDispatch = 0;
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
  if (!tracking) {
    if (block) {
      real.after(when, queue, block);
    } else {
      real.afterF(when, queue, context, function);
    }
  } else {
    insideDispatch = 1;
    real.afterF(when, queue, track(block, function, context), runTracked);
    insideDispatch = 0;
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
  if (!tracking) return real.barrierAsync(queue, block);
  insideDispatch = 1;
  real.barrierAsyncF(queue, track(block, NULL, NULL), runTracked);
  insideDispatch = 0;
}

__attribute__((weak)) void dispatch_group_async(qt_group group, qt_queue queue, void *block) {
  pthread_once(&realOnce, findReal);
  if (!tracking) return real.groupAsync(group, queue, block);
  // What Dispatch itself does: the group counts the work from now until it has run.
  insideDispatch = 1;
  real.groupAsyncF(group, queue, track(block, NULL, NULL), runTracked);
  insideDispatch = 0;
}

__attribute__((weak)) void dispatch_group_notify(qt_group group, qt_queue queue, void *block) {
  pthread_once(&realOnce, findReal);
  if (!tracking) return real.groupNotify(group, queue, block);
  insideDispatch = 1;
  real.groupNotifyF(group, queue, track(block, NULL, NULL), runTracked);
  insideDispatch = 0;
}

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
static long threadsStarted;

static void findThreadCreate(void) {
  realThreadCreate = find(NULL, "pthread_create");
}

static void countDown(unsigned long long run) {
  unsigned long long seen = __atomic_load_n(&runAndOutstanding, __ATOMIC_ACQUIRE);
  while ((seen >> 32) == run && (seen & 0xFFFFFFFFull) > 0) {
    if (__atomic_compare_exchange_n(&runAndOutstanding, &seen, seen - 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      void (*ran)(void) = __atomic_load_n(&workRan, __ATOMIC_ACQUIRE);
      if (ran) ran();
      return;
    }
  }
}

static void *runTrackedThread(void *opaque) {
  QTTrackedThread thread = *(QTTrackedThread *)opaque;
  free(opaque);
  void *result = thread.start(thread.argument);
  countDown(thread.run);
  return result;
}

__attribute__((weak)) int pthread_create(
    pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
  pthread_once(&threadCreateOnce, findThreadCreate);
  __atomic_store_n(&threadReached, 1, __ATOMIC_RELAXED);
  if (!tracking || insideDispatch) return realThreadCreate(thread, attributes, start, argument);
  QTTrackedThread *tracked = malloc(sizeof(QTTrackedThread));
  if (!tracked) return realThreadCreate(thread, attributes, start, argument);
  tracked->start = start;
  tracked->argument = argument;
  tracked->run = __atomic_add_fetch(&runAndOutstanding, 1, __ATOMIC_ACQ_REL) >> 32;
  __atomic_add_fetch(&threadsStarted, 1, __ATOMIC_RELAXED);
  int status = realThreadCreate(thread, attributes, runTrackedThread, tracked);
  if (status != 0) {
    countDown(tracked->run);
    free(tracked);
  }
  return status;
}

long qt_threads_started_by_run(void) {
  return __atomic_load_n(&threadsStarted, __ATOMIC_RELAXED);
}

// Threads the run's code wakes (a condition signalled, a semaphore posted, which is also how
// Dispatch signals a `DispatchSemaphore` on Linux, an event loop's eventfd written, bytes written
// to a pipe or a socket that a thread reads), whoever started them: an event loop made before the run (a shared
// `MultiThreadedEventLoopGroup`), a worker thread of the test's fixture. The run cannot see what
// such a thread does next, so from the first wake-up on, virtual time moves no faster than real
// time (up to the timeout), as it does for threads the run started. Only the run's own thread
// counts, and only outside this file's hand-overs to Dispatch, whose own threads are Dispatch's.
static long threadsWoken;
static int wakeReached;
static struct {
  int (*condSignal)(pthread_cond_t *);
  int (*condBroadcast)(pthread_cond_t *);
  int (*semPost)(sem_t *);
  int (*eventfdWrite)(int, eventfd_t);
  ssize_t (*write)(int, const void *, size_t);
  ssize_t (*writev)(int, const struct iovec *, int);
  ssize_t (*send)(int, const void *, size_t, int);
} realWake;
static pthread_once_t wakeOnce = PTHREAD_ONCE_INIT;

static void findWake(void) {
  realWake.condSignal = find(NULL, "pthread_cond_signal");
  realWake.condBroadcast = find(NULL, "pthread_cond_broadcast");
  realWake.semPost = find(NULL, "sem_post");
  realWake.eventfdWrite = find(NULL, "eventfd_write");
  realWake.write = find(NULL, "write");
  realWake.writev = find(NULL, "writev");
  realWake.send = find(NULL, "send");
}

static inline void noteWake(void) {
  // Every thread of the process signals conditions: stored once, not on every call, so that the
  // word's cache line is not written back and forth between them.
  if (!__atomic_load_n(&wakeReached, __ATOMIC_RELAXED)) __atomic_store_n(&wakeReached, 1, __ATOMIC_RELAXED);
  if (tracking && !insideDispatch) __atomic_add_fetch(&threadsWoken, 1, __ATOMIC_RELAXED);
}

__attribute__((weak)) int pthread_cond_signal(pthread_cond_t *condition) {
  pthread_once(&wakeOnce, findWake);
  noteWake();
  return realWake.condSignal(condition);
}

__attribute__((weak)) int pthread_cond_broadcast(pthread_cond_t *condition) {
  pthread_once(&wakeOnce, findWake);
  noteWake();
  return realWake.condBroadcast(condition);
}

__attribute__((weak)) int sem_post(sem_t *semaphore) {
  pthread_once(&wakeOnce, findWake);
  noteWake();
  return realWake.semPost(semaphore);
}

__attribute__((weak)) int eventfd_write(int descriptor, eventfd_t value) {
  pthread_once(&wakeOnce, findWake);
  noteWake();
  return realWake.eventfdWrite(descriptor, value);
}

// A write wakes a thread when it goes to a pipe or a socket (a thread blocked reading the other
// end, a Dispatch source watching it); standard output and error are the test's log, and a file
// wakes nobody. Only the run's own writes are looked at, so the check costs nothing elsewhere.
static inline void noteWriteWake(int descriptor) {
  if (!tracking || insideDispatch || descriptor <= 2) return;
  struct stat info;
  if (fstat(descriptor, &info) == 0 && (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode))) noteWake();
}

__attribute__((weak)) ssize_t write(int descriptor, const void *buffer, size_t count) {
  pthread_once(&wakeOnce, findWake);
  noteWriteWake(descriptor);
  return realWake.write(descriptor, buffer, count);
}

__attribute__((weak)) ssize_t writev(int descriptor, const struct iovec *vectors, int count) {
  pthread_once(&wakeOnce, findWake);
  noteWriteWake(descriptor);
  return realWake.writev(descriptor, vectors, count);
}

__attribute__((weak)) ssize_t send(int descriptor, const void *buffer, size_t count, int flags) {
  pthread_once(&wakeOnce, findWake);
  noteWriteWake(descriptor);
  return realWake.send(descriptor, buffer, count, flags);
}

long qt_threads_woken_by_run(void) {
  return __atomic_load_n(&threadsWoken, __ATOMIC_RELAXED);
}

// Whether a call reached this file's definitions: another definition may take the calls first
// (the thread sanitizer's runtime, linked into the binary, intercepts the same functions, and its
// strong definitions win over these weak ones at link time, where no address tells them apart).
static int countingWorks;
static pthread_once_t probeOnce = PTHREAD_ONCE_INIT;

extern qt_queue dispatch_get_global_queue(long identifier, unsigned long flags);

static void noWork(void *context) { (void)context; }
static void *noThreadWork(void *argument) { return argument; }

static void probe(void) {
  dispatch_async_f(dispatch_get_global_queue(0, 0), NULL, noWork);
  pthread_t thread;
  if (pthread_create(&thread, NULL, noThreadWork, NULL) == 0) pthread_join(thread, NULL);
  pthread_cond_t condition = PTHREAD_COND_INITIALIZER;
  pthread_cond_signal(&condition);
  pthread_cond_destroy(&condition);
  countingWorks = __atomic_load_n(&dispatchReached, __ATOMIC_RELAXED) && __atomic_load_n(&threadReached, __ATOMIC_RELAXED)
    && __atomic_load_n(&wakeReached, __ATOMIC_RELAXED);
}

bool qt_outside_work_is_counted(void) {
  pthread_once(&probeOnce, probe);
  return countingWorks;
}

void qt_track_dispatch_work(bool on, void (*_Nullable ran)(void)) {
  if (on) {
    // A new run, with nothing outstanding.
    unsigned long long seen = __atomic_load_n(&runAndOutstanding, __ATOMIC_ACQUIRE);
    unsigned long long next;
    do {
      next = ((seen >> 32) + 1) << 32;
    } while (!__atomic_compare_exchange_n(&runAndOutstanding, &seen, next, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    __atomic_store_n(&workRan, ran, __ATOMIC_RELEASE);
    __atomic_store_n(&handedOut, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&threadsStarted, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&threadsWoken, 0, __ATOMIC_RELAXED);
  }
  tracking = on;
}

void qt_track_dispatch_work_on_this_thread(bool on) { tracking = on; }

long qt_dispatch_work_handed_out(void) {
  return __atomic_load_n(&handedOut, __ATOMIC_RELAXED);
}

long qt_outstanding_dispatch_work(void) {
  return (long)(__atomic_load_n(&runAndOutstanding, __ATOMIC_ACQUIRE) & 0xFFFFFFFFull);
}

#else

void qt_track_dispatch_work(bool on, void (*_Nullable ran)(void)) {
  (void)on;
  (void)ran;
}

void qt_track_dispatch_work_on_this_thread(bool on) { (void)on; }

long qt_outstanding_dispatch_work(void) { return 0; }

long qt_dispatch_work_handed_out(void) { return 0; }

long qt_threads_started_by_run(void) { return 0; }

long qt_threads_woken_by_run(void) { return 0; }

bool qt_outside_work_is_counted(void) { return false; }

#endif
