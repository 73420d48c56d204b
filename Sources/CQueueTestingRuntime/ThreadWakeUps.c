#include "CQueueTestingRuntime.h"
#include "OutsideWorkCounts.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

// Threads the run's code wakes (a condition signalled, a semaphore posted, a `DispatchSemaphore`
// signalled or a `DispatchGroup` left, an event loop's eventfd written, bytes written to a pipe or
// a socket that a thread reads), whoever started them: an event loop made before the run (a shared
// `MultiThreadedEventLoopGroup`), a worker thread of the test's fixture. The run cannot see what
// such a thread does next, so from the first wake-up on, virtual time moves no faster than real
// time (up to the timeout), as it does for threads the run started. Only the run's own thread
// counts, and only outside the hand-overs to Dispatch (`DispatchWork.c`), whose own threads are
// Dispatch's.
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
  realWake.condSignal = qt_find_real(NULL, "pthread_cond_signal");
  realWake.condBroadcast = qt_find_real(NULL, "pthread_cond_broadcast");
  realWake.semPost = qt_find_real(NULL, "sem_post");
  realWake.eventfdWrite = qt_find_real(NULL, "eventfd_write");
  realWake.write = qt_find_real(NULL, "write");
  realWake.writev = qt_find_real(NULL, "writev");
  realWake.send = qt_find_real(NULL, "send");
}

// Dispatch's own entry points, found only once one of them is called (Dispatch is loaded then).
static struct {
  long (*semaphoreSignal)(void *);
  void (*groupLeave)(void *);
} realDispatchWake;
static pthread_once_t dispatchWakeOnce = PTHREAD_ONCE_INIT;

static void findDispatchWake(void) {
  void *dispatch = dlopen("libdispatch.so", RTLD_LAZY | RTLD_NOLOAD);
  realDispatchWake.semaphoreSignal = qt_find_real(dispatch, "dispatch_semaphore_signal");
  realDispatchWake.groupLeave = qt_find_real(dispatch, "dispatch_group_leave");
}

static inline void noteWake(void) {
  // Every thread of the process signals conditions: stored once, not on every call, so that the
  // word's cache line is not written back and forth between them.
  if (!__atomic_load_n(&qt_wake_reached, __ATOMIC_RELAXED)) __atomic_store_n(&qt_wake_reached, 1, __ATOMIC_RELAXED);
  if (qt_counting && !qt_inside_dispatch) __atomic_add_fetch(&qt_threads_woken, 1, __ATOMIC_RELAXED);
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

// A `DispatchSemaphore` is signalled in user space, and posts its POSIX semaphore only when a
// thread already waits: a signal that comes first lets the thread that waits next go on without
// ever blocking, so the post alone misses it (a worker thread still finishing its last request
// when the run signals it). Every signal counts, as every condition signal does.
__attribute__((weak)) long dispatch_semaphore_signal(void *semaphore) {
  pthread_once(&dispatchWakeOnce, findDispatchWake);
  noteWake();
  return realDispatchWake.semaphoreSignal(semaphore);
}

// A `DispatchGroup` wakes the threads in its `wait()` through a futex of its own, with no call
// the test binary can see; its `notify` blocks are Dispatch work, counted as such.
__attribute__((weak)) void dispatch_group_leave(void *group) {
  pthread_once(&dispatchWakeOnce, findDispatchWake);
  noteWake();
  realDispatchWake.groupLeave(group);
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
  if (!qt_counting || qt_inside_dispatch || descriptor <= 2) return;
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

#endif
