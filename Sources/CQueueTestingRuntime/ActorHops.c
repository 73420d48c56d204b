#include "CQueueTestingRuntime.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Notes the hops of the run's tasks onto and off default actors, for the run's picture (which
// task's work ran on which actor, in what order).
//
// Why: a default actor runs the tasks queued on it inside one job of its own (its drain), which
// belongs to no task, so the jobs the harness schedules do not say whose work ran on the actor.
// The queue is filled by `swift_task_switch`, which compiled code calls to hop to an actor's
// executor (and back): noting each call, with the task and the executors it leaves and enters,
// gives each actor's queue in order.
//
// How: as in `TaskCreation.c`, this file defines the symbol weakly. In a test binary linked
// against the shared concurrency runtime, the code compiled into it binds to this definition,
// which notes the hop (on the run's thread, during a run) and tail-calls the runtime's. Hops
// made from inside the runtime itself, and every hop where the runtime is linked statically,
// are not seen: the picture then shows less, and the run is the same either way.

typedef __attribute__((swiftasynccall)) void (*QTTaskSwitch)(
    void *__attribute__((swift_async_context)) context, void *resume, uintptr_t identity, uintptr_t implementation);

__attribute__((weak, swiftasynccall)) void swift_task_switch(
    void *__attribute__((swift_async_context)) context, void *resume, uintptr_t identity, uintptr_t implementation);

typedef struct {
  uintptr_t identity;
  uintptr_t implementation;
} QTExecutorRef;

__attribute__((swiftcall)) extern QTExecutorRef swift_task_getCurrentExecutor(void);
__attribute__((swiftcall)) extern void *swift_task_getCurrent(void);
__attribute__((swiftcall)) extern uint64_t swift_task_getJobTaskId(void *job);

static QTTaskSwitch runtimeTaskSwitch;
static pthread_once_t runtimeTaskSwitchOnce = PTHREAD_ONCE_INIT;

enum { QTHopCapacity = 4096 };

// Set on the run's thread for the length of a run; the notes are the run thread's alone.
static _Thread_local int recording __attribute__((tls_model("initial-exec")));
static _Thread_local int hopCount __attribute__((tls_model("initial-exec")));
static _Thread_local int hopsDropped __attribute__((tls_model("initial-exec")));
static _Thread_local QTActorHop hops[QTHopCapacity] __attribute__((tls_model("initial-exec")));

static void findRuntimeTaskSwitch(void) {
  void *runtime = dlopen("libswift_Concurrency.so", RTLD_LAZY | RTLD_NOLOAD);
  void *found = runtime ? dlsym(runtime, "swift_task_switch") : NULL;
  if (!found) found = dlsym(RTLD_NEXT, "swift_task_switch");
  if (!found || found == (void *)&swift_task_switch) {
    fprintf(stderr, "QueueTesting: the concurrency runtime's swift_task_switch was not found\n");
    abort();
  }
  runtimeTaskSwitch = (QTTaskSwitch)found;
}

// A default actor's executor reference is the actor itself with no witness table.
static int isDefaultActor(uintptr_t identity, uintptr_t implementation) {
  return identity != 0 && implementation == 0;
}

static void note(uintptr_t identity, uintptr_t implementation) {
  QTExecutorRef current = swift_task_getCurrentExecutor();
  int leaves = isDefaultActor(current.identity, current.implementation) && current.identity != identity;
  int enters = isDefaultActor(identity, implementation) && current.identity != identity;
  if (!leaves && !enters) return;
  void *task = swift_task_getCurrent();
  if (!task) return;
  if (hopCount == QTHopCapacity) {
    hopsDropped += 1;
    return;
  }
  QTActorHop *hop = &hops[hopCount++];
  hop->task = swift_task_getJobTaskId(task);
  hop->from = leaves ? current.identity : 0;
  hop->to = enters ? identity : 0;
}

// A task's arrival on a default actor, deferred (see `swift_task_switch` below).
//
// Why: the runtime puts a hopping task on the actor's queue at the hop itself, inside the job
// that hops. On real threads another task, running beside that job, can reach the actor first:
// `Task { await log.append("x") }; await log.append("y")` gives "xy" now and then. Run one job
// at a time, the hopping job always queues first, so that order would never be offered. During
// a run that makes every hop a choice, a hop onto a default actor first switches the task to the
// harness's arrival executor, whose `enqueue` hands the task back to the run as a job of its
// own; when the strategy runs that job, `resumeArrival` makes the real hop. Between the two, any
// job the strategy prefers runs first, as another thread could have.
//
// Only a hop that leaves the generic executor is deferred. A task leaving a serial executor (the
// main actor, a default actor, an actor on a custom executor) reaches the new actor before that
// executor runs anything else: the runtime's `swift_task_switch` either gives the old actor's
// thread to the new one (a default actor left for an idle one) or enqueues the task on the new
// actor synchronously, inside the job that hops, and only then lets the old executor go on
// (the main actor and custom executors cannot give their thread up at all). So twenty
// `Task { @MainActor in await counter.increment(i) }` reach `counter` in the order the main actor
// ran them, on every run on real threads; deferring those arrivals offered orders no thread
// produces. What another thread does at the same time is still offered: its own hop is a
// separate job, deferred if it leaves the generic executor, and runs before or after this one.
typedef struct {
  void *task;
  void *resume;
  uintptr_t identity;
  uintptr_t implementation;
} QTDeferredArrival;

// The arrival executor (identity and witness table) of the run on this thread; zero when hops are
// not deferred.
static _Thread_local uintptr_t arrivalIdentity __attribute__((tls_model("initial-exec")));
static _Thread_local uintptr_t arrivalImplementation __attribute__((tls_model("initial-exec")));
// Called, while the hopping task is still the current one, before its arrival is deferred: the
// run learns the names of the tasks it may cancel there (the runtime shows a task's name only to
// code running in it, and the arrival job is enqueued after the task stopped being current).
static _Thread_local void (*hopObserver)(void) __attribute__((tls_model("initial-exec")));

// Deferred arrivals, by task. Shared among threads: a run that ends early hands the jobs it holds
// to the platform's executor, and a deferred task then arrives on a thread of the pool.
static pthread_mutex_t deferredLock = PTHREAD_MUTEX_INITIALIZER;
static QTDeferredArrival *deferred;
static int deferredCount;
static int deferredCapacity;

static void deferArrival(void *task, void *resume, uintptr_t identity, uintptr_t implementation) {
  pthread_mutex_lock(&deferredLock);
  if (deferredCount == deferredCapacity) {
    int capacity = deferredCapacity ? deferredCapacity * 2 : 64;
    QTDeferredArrival *grown = realloc(deferred, sizeof(QTDeferredArrival) * (size_t)capacity);
    if (!grown) abort();
    deferred = grown;
    deferredCapacity = capacity;
  }
  deferred[deferredCount++] = (QTDeferredArrival){task, resume, identity, implementation};
  pthread_mutex_unlock(&deferredLock);
}

static QTDeferredArrival takeArrival(void *task) {
  pthread_mutex_lock(&deferredLock);
  // Searched from the end: the arrival made last is the likeliest to be taken next.
  for (int index = deferredCount - 1; index >= 0; index--) {
    if (deferred[index].task != task) continue;
    QTDeferredArrival found = deferred[index];
    deferred[index] = deferred[--deferredCount];
    pthread_mutex_unlock(&deferredLock);
    return found;
  }
  pthread_mutex_unlock(&deferredLock);
  fprintf(stderr, "QueueTesting: a task resumed on the arrival executor without a deferred hop\n");
  abort();
}

// Where a deferred task resumes, on the run's thread as a job the strategy chose: the real hop.
// The runtime calls a resume function with the async context alone (passed in its own register);
// the other parameters are declared, unread, so that the signature matches `swift_task_switch`'s,
// which a guaranteed tail call needs.
__attribute__((swiftasynccall)) static void resumeArrival(
    void *__attribute__((swift_async_context)) context, void *unusedResume, uintptr_t unusedIdentity,
    uintptr_t unusedImplementation) {
  (void)unusedResume;
  (void)unusedIdentity;
  (void)unusedImplementation;
  QTDeferredArrival arrival = takeArrival(swift_task_getCurrent());
  if (recording) note(arrival.identity, arrival.implementation);
  __attribute__((musttail)) return runtimeTaskSwitch(
      context, arrival.resume, arrival.identity, arrival.implementation);
}

// Whether a hop to `target` leaves the generic executor (the global one, or a task executor),
// whose jobs run beside each other on real threads; the generic executor's identity is null.
static int leavesGenericExecutor(QTExecutorRef current, uintptr_t target) {
  return current.identity == 0 && target != 0;
}

__attribute__((weak, swiftasynccall)) void swift_task_switch(
    void *__attribute__((swift_async_context)) context, void *resume, uintptr_t identity, uintptr_t implementation) {
  pthread_once(&runtimeTaskSwitchOnce, findRuntimeTaskSwitch);
  if (arrivalIdentity && isDefaultActor(identity, implementation)) {
    void *task = swift_task_getCurrent();
    if (task && leavesGenericExecutor(swift_task_getCurrentExecutor(), identity)) {
      // Only the leaving is noted now; the arrival is noted when it happens.
      if (recording) note(arrivalIdentity, arrivalImplementation);
      if (hopObserver) hopObserver();
      deferArrival(task, resume, identity, implementation);
      __attribute__((musttail)) return runtimeTaskSwitch(
          context, (void *)resumeArrival, arrivalIdentity, arrivalImplementation);
    }
  }
  if (recording) note(identity, implementation);
  __attribute__((musttail)) return runtimeTaskSwitch(context, resume, identity, implementation);
}

void qt_record_actor_hops(bool on) {
  recording = on ? 1 : 0;
  hopCount = 0;
  hopsDropped = 0;
}

void qt_defer_actor_arrivals(uintptr_t identity, uintptr_t implementation) {
  arrivalIdentity = identity;
  arrivalImplementation = implementation;
}

void qt_observe_deferred_hops(void (*_Nullable observer)(void)) { hopObserver = observer; }

int qt_take_actor_hops(QTActorHop *_Nonnull buffer, int capacity) {
  int count = hopCount < capacity ? hopCount : capacity;
  for (int index = 0; index < count; index++) buffer[index] = hops[index];
  // What did not fit stays for the next call, in order.
  for (int index = count; index < hopCount; index++) hops[index - count] = hops[index];
  hopCount -= count;
  return count;
}

int qt_actor_hops_dropped(void) { return hopsDropped; }

uintptr_t qt_last_actor_entered(void) {
  return hopCount > 0 ? hops[hopCount - 1].to : 0;
}

int qt_actor_hop_count(void) { return hopCount; }

#else

void qt_record_actor_hops(bool on) { (void)on; }

void qt_defer_actor_arrivals(uintptr_t identity, uintptr_t implementation) {
  (void)identity;
  (void)implementation;
}

void qt_observe_deferred_hops(void (*_Nullable observer)(void)) { (void)observer; }

int qt_take_actor_hops(QTActorHop *_Nonnull buffer, int capacity) {
  (void)buffer;
  (void)capacity;
  return 0;
}

int qt_actor_hops_dropped(void) { return 0; }

uintptr_t qt_last_actor_entered(void) { return 0; }

int qt_actor_hop_count(void) { return 0; }

#endif
