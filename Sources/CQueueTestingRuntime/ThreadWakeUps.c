// sendmmsg and struct mmsghdr are GNU extensions in glibc.
#define _GNU_SOURCE
#include "CQueueTestingRuntime.h"
#include "OutsideWorkCounts.h"

#if defined(__linux__)
#include <pthread.h>
#include <semaphore.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

// Threads the run's code wakes (a condition signalled, a semaphore posted, an event loop's eventfd
// written, bytes written or sent to a pipe or a socket that a thread reads; Dispatch's own ways
// are `DispatchWakeUps.c`), whoever started them: an event loop made before the run (a shared
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
  ssize_t (*sendTo)(int, const void *, size_t, int, __CONST_SOCKADDR_ARG, socklen_t);
  ssize_t (*sendMessage)(int, const struct msghdr *, int);
  int (*sendMessages)(int, struct mmsghdr *, unsigned int, int);
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
  realWake.sendTo = qt_find_real(NULL, "sendto");
  realWake.sendMessage = qt_find_real(NULL, "sendmsg");
  realWake.sendMessages = qt_find_real(NULL, "sendmmsg");
}

__attribute__((weak)) int pthread_cond_signal(pthread_cond_t *condition) {
  pthread_once(&wakeOnce, findWake);
  qt_note_wake();
  return realWake.condSignal(condition);
}

__attribute__((weak)) int pthread_cond_broadcast(pthread_cond_t *condition) {
  pthread_once(&wakeOnce, findWake);
  qt_note_wake();
  return realWake.condBroadcast(condition);
}

__attribute__((weak)) int sem_post(sem_t *semaphore) {
  pthread_once(&wakeOnce, findWake);
  qt_note_wake();
  return realWake.semPost(semaphore);
}

__attribute__((weak)) int eventfd_write(int descriptor, eventfd_t value) {
  pthread_once(&wakeOnce, findWake);
  qt_note_wake();
  return realWake.eventfdWrite(descriptor, value);
}

// A write wakes a thread when it goes to a pipe or a socket (a thread blocked reading the other
// end, a Dispatch source watching it); standard output and error are the test's log, and a file
// wakes nobody. Only the run's own writes are looked at, so the check costs nothing elsewhere.
static inline void noteWriteWake(int descriptor) {
  if (!qt_counting || qt_inside_dispatch || descriptor <= 2) return;
  struct stat info;
  if (fstat(descriptor, &info) == 0 && (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode))) qt_note_wake();
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

// Datagrams, and sockets written the way event loops write them (NIO sends with `sendmsg`, and
// batches with `sendmmsg`).
__attribute__((weak)) ssize_t sendto(
  int descriptor, const void *buffer, size_t count, int flags, __CONST_SOCKADDR_ARG address, socklen_t length) {
  pthread_once(&wakeOnce, findWake);
  noteWriteWake(descriptor);
  return realWake.sendTo(descriptor, buffer, count, flags, address, length);
}

__attribute__((weak)) ssize_t sendmsg(int descriptor, const struct msghdr *message, int flags) {
  pthread_once(&wakeOnce, findWake);
  noteWriteWake(descriptor);
  return realWake.sendMessage(descriptor, message, flags);
}

__attribute__((weak)) int sendmmsg(int descriptor, struct mmsghdr *messages, unsigned int count, int flags) {
  pthread_once(&wakeOnce, findWake);
  noteWriteWake(descriptor);
  return realWake.sendMessages(descriptor, messages, count, flags);
}

#endif
