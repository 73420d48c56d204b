#ifndef C_QUEUE_TESTING_RUNTIME_H
#define C_QUEUE_TESTING_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

// MARK: The current executor (`CurrentExecutor.c`)

/// The identity of the serial executor the calling thread is running a job on: the executor
/// object, or 0 for the generic executor (a thread that runs no job on a serial executor).
///
/// Read through the concurrency runtime's `swift_task_getCurrentExecutor`, which the standard
/// library binds for its own isolation checks; no public API returns it. QueueTesting reads it
/// only to name where work outside the harness ran.
uintptr_t qt_current_serial_executor_identity(void);

// MARK: Executor hooks (`ExecutorHooks.c`)

/// Finds the runtime's executor hooks, and takes the function that enqueues a job as if no hook
/// were set (see `ExecutorHooks.c`). Called once, as the harness installs its executors.
void qt_install_executor_hooks(void (*_Nonnull unhooked)(void *_Nonnull job));

/// If `swift_task_enqueueGlobal_hook` is set, hands `job` to it (as the runtime would have) and
/// returns true; false when there is no hook, or when called from inside the hook.
bool qt_enqueue_through_global_hook(void *_Nonnull job);

/// Whether `swift_task_enqueueGlobal_hook` is set, and the calling thread is not inside it.
bool qt_global_hook_is_set(void);

/// The name of an executor hook the harness cannot honour that is set now, or NULL.
const char *_Nullable qt_unhonoured_executor_hook(void);

// MARK: Clock reads that follow virtual time (`VirtualTimeReads.c`)

/// Starts a run's virtual clock reads: nothing skipped yet (see `VirtualTimeReads.c`).
void qt_virtual_time_begin(void);

/// Turns on (`on`) or off, for the calling thread, clock reads that follow the run's virtual
/// time: the real time plus what the run skipped. On while one of the run's jobs runs.
void qt_virtual_time_reads(bool on);

/// The run's virtual time jumped by `jump` nanoseconds after the run waited `paced` nanoseconds
/// of real time for it: what the wait did not cover is skipped.
void qt_virtual_time_advance(unsigned long long jump, unsigned long long paced);

/// The real monotonic time in nanoseconds, whatever the calling thread reads.
unsigned long long qt_real_monotonic_nanoseconds(void);

/// Whether the process's clock reads reach `VirtualTimeReads.c` (not under the thread
/// sanitizer, whose runtime takes `clock_gettime` itself).
bool qt_virtual_time_is_read(void);

/// Turns the calling thread's reads back to real time, returning whether they followed virtual
/// time (to hand back to `qt_virtual_time_reads`).
bool qt_virtual_time_pause(void);

/// A Dispatch deadline computed from a read that followed virtual time, moved back to real time.
unsigned long long qt_dispatch_time_to_real(unsigned long long when);

// MARK: Outside work (`OutsideWorkCounts.c`; its sources `DispatchWork.c`, `ThreadStarts.c`,
// `ThreadWakeUps.c`)

/// Starts (`on`) or stops counting the work the calling thread hands outside the harness as the
/// active run's: work handed to Dispatch queues, threads started, threads woken. Starting begins
/// a new count; `done` is called, on the thread that did it, each time counted work is done.
void qt_count_outside_work(bool on, void (*_Nullable done)(void));

/// Starts (`on`) or stops counting the work the calling thread hands out as the active run's,
/// with no new count begun: for a thread that takes over driving a run already counted (a
/// relief driver).
void qt_count_outside_work_on_this_thread(bool on);

/// How much counted work is not done yet: work handed to Dispatch that has not run, threads
/// started that have not ended.
long qt_outstanding_outside_work(void);

/// How much work the run's thread handed to Dispatch since counting began.
long qt_dispatch_work_handed_out(void);

/// How many threads the run's thread started since counting began (they count as work not done
/// until they end).
long qt_threads_started_by_run(void);

/// How many times the run's thread woke another thread (a condition signalled or broadcast, a
/// semaphore posted, a `DispatchSemaphore` signalled, a `DispatchGroup` left, a Dispatch source or
/// queue resumed or activated, data merged into a source, an eventfd written, bytes written or
/// sent to a pipe or a socket) since counting began, outside its hand-overs to Dispatch.
long qt_threads_woken_by_run(void);

/// Whether the calls that hand work to Dispatch, start threads and wake them reach this library's
/// definitions in this process (not under the thread sanitizer, whose runtime takes them).
bool qt_outside_work_is_counted(void);

// MARK: Leaked continuations (`ContinuationMisuse.c`)

/// Starts (`on`, forgetting earlier notes) or stops noting what the runtime reports about leaked
/// continuations (see `ContinuationMisuse.c`); `tell` is called, on the reporting thread, for
/// each message noted.
void qt_watch_leaked_continuations(bool on, void (*_Nullable tell)(void));

/// How many messages were noted since watching began: a check without a lock, for each time the
/// run's driver looks.
int qt_leaked_continuation_count(void);

/// Writes the messages noted since watching began into `buffer` (one per line, cut to
/// `capacity`), and returns how many there were.
int qt_leaked_continuation_messages(char *_Nonnull buffer, int capacity);

// MARK: Task creation (`TaskCreation.c`)

/// Makes tasks created on the calling thread from now on, without a task-executor preference of
/// their own and not structured children, prefer the task executor `identity`/`implementation`
/// (the two words of an `UnownedTaskExecutor`); `0, 0` stops. Only where the test binary's
/// definition of the runtime's task-creation entry point is the one its code calls (Linux, with
/// the shared concurrency runtime): see `TaskCreation.c`.
void qt_prefer_task_executor_for_new_tasks(uintptr_t identity, uintptr_t implementation);

/// Whether a task was created through that definition in this process.
bool qt_task_creation_is_interposed(void);

// MARK: Actor hops (`ActorHops.c`)

/// A hop of a task onto or off a default actor, noted on the run's thread (see `ActorHops.c`):
/// the task's runtime id, the actor it left (0: none) and the actor it entered (0: none), each
/// the actor object's address.
typedef struct {
  uint64_t task;
  uintptr_t from;
  uintptr_t to;
} QTActorHop;

/// Starts (`on`) or stops noting the calling thread's hops onto and off default actors; either
/// forgets the notes not taken.
void qt_record_actor_hops(bool on);

/// Makes the calling thread's hops onto default actors arrive through the given serial executor
/// (identity and witness table) first, as a job of their own (see `ActorHops.c`); (0, 0) turns it
/// off.
void qt_defer_actor_arrivals(uintptr_t identity, uintptr_t implementation);

/// Calls `observer` on the calling thread at each deferred hop, while the hopping task is the
/// current task; NULL stops it.
void qt_observe_deferred_hops(void (*_Nullable observer)(void));

/// Moves up to `capacity` notes, oldest first, into `buffer`; returns how many.
int qt_take_actor_hops(QTActorHop *_Nonnull buffer, int capacity);

/// How many hops were not noted since recording began, for want of room.
int qt_actor_hops_dropped(void);

/// The actor the latest note not taken yet entered (0: none): the actor whose drain the runtime
/// schedules right after a task hopped onto it.
uintptr_t qt_last_actor_entered(void);

/// How many notes wait to be taken: a check before taking them, at every step.
int qt_actor_hop_count(void);

// MARK: Threads: what a stuck job's thread does (`ThreadStack.c`, `ThreadActivity.c`)

/// Lets the calling thread's stack be sampled (unblocks the sampling signal for it); returns
/// whether the signal was blocked before, for `qt_restore_stack_samples`.
bool qt_allow_stack_samples(void);

/// The calling thread's kernel id (Linux's `gettid`), for `/proc/self/task/ID`; 0 elsewhere.
long qt_current_kernel_thread(void);

/// The CPU time the thread (a `pthread_t`) has used, in nanoseconds; `UINT64_MAX` where it cannot
/// be read (platforms other than Linux).
uint64_t qt_thread_cpu_nanoseconds(uintptr_t thread);

/// 1 if the kernel thread (`qt_current_kernel_thread` of it) waits now (sleeping, or blocked in
/// I/O), 0 if it runs or is runnable, -1 where that cannot be read (platforms other than Linux).
int qt_kernel_thread_is_waiting(long kernelThread);

/// Blocks the sampling signal again on the calling thread if `wasBlocked`.
void qt_restore_stack_samples(bool wasBlocked);

/// Names of the functions on the call stack of `thread` (a `pthread_t` of this process), innermost
/// first, as the dynamic linker knows them (exported symbols only: the blocking calls of the C
/// library and of Dispatch among them); at most `capacity`. Waits up to `timeoutMilliseconds`
/// for the thread to record its stack. Returns how many names it wrote (0 where unsupported: see
/// `ThreadStack.c`).
int qt_thread_stack_symbols(uintptr_t thread, const char *_Nonnull *_Nonnull names, int capacity, int timeoutMilliseconds);

#endif
