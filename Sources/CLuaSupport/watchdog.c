/* The watchdog: time limits and interrupts at no cost to the VM until they fire.
 *
 * While any hook is set, Lua's VM takes its trap path at every instruction, whatever the hook's count,
 * so a count hook that reads the clock every 1,000 instructions doubles the time of VM-bound code and
 * still misses a deadline that passes inside one long C call (utf8.len over 100 MB, a full collection
 * of millions of tables: one instruction each). Instead, one thread per process sleeps until the
 * earliest deadline of every state, or until an interrupt is asked for. Then, if the state is running
 * Lua code (no Swift frame on top), it sends a signal to the thread running it, whose handler arms a
 * count hook of one instruction on the Lua thread (coroutine) running now. lua_sethook may be called
 * so, from a signal handler: Lua's own lua.c stops a script on Ctrl-C that way. The hook then raises
 * the limit's error at the next instruction, so a long C call is stopped as it returns. Until the
 * limit is raised the watchdog signals again every ESL_RESIGNAL_NS (a signal that came as a coroutine
 * yielded armed the wrong thread; one that came while Swift code ran found no Lua code to stop). A
 * limit that a coroutine met and that ended it is passed on to its resumer as the resume returns
 * (sandbox.c). If the watchdog thread cannot be started, the hook stays on as it used to (every 1,000
 * instructions) while a deadline or an interrupt flag is set.
 *
 * The signal is SIGURG: ignored by default, so a stray one harms no one, and used by almost nothing.
 * A thread unblocks it the first time it runs Lua code (Dispatch's worker threads start with it
 * blocked); one not sent by this process's own tgkill goes to the handler that was there before.
 *
 * The signal goes to a thread by its kernel id (tgkill), never through a pthread_t that may have been
 * freed: a thread that has ended is not found, and a signal that arrives late, after its thread left
 * Lua or at a new thread given the same id, finds no Lua code of that state running and does nothing
 * (or arms a hook that sees no limit passed and puts the usual one back). So leaving Lua costs a
 * plain store; entering it, one sequentially consistent store, so that a deadline that passes as a
 * call starts is seen by one side or the other.
 */
#define _GNU_SOURCE
#include "CLuaSupport.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ESL_ALARM_SIGNAL SIGURG
/* How often a limit that has passed is signalled again until the state stops running Lua code. */
#define ESL_RESIGNAL_NS 20000000LL

/* The watchdog's view of one state. */
struct esl_watch {
    esl_runtime *rt;
    pid_t thread;                 /* the kernel id of the thread running its outermost call, while in_lua */
    int in_lua;                   /* 1 from the outermost call's start to its end (atomic) */
    esl_runtime *outer;           /* the state this thread was running before (states may nest) */
    struct esl_watch *next, *previous;
};

static pthread_mutex_t esl_watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t esl_watch_wake;
static struct esl_watch *esl_watched;     /* every open state; under the lock */
static long long esl_watch_planned;       /* when the watchdog wakes next; 0: only when woken */
static pthread_once_t esl_watch_once = PTHREAD_ONCE_INIT;
static int esl_watch_started;             /* under the lock */
static struct sigaction esl_previous_action;

/* The state whose outermost call the current thread runs. Initial-exec: read in the signal handler,
   never through a lazy allocation. */
static __thread esl_runtime *esl_thread_runtime __attribute__((tls_model("initial-exec")));
/* The thread's kernel id, once it has unblocked the signal (0 before). */
static __thread pid_t esl_thread_id __attribute__((tls_model("initial-exec")));

static void esl_alarm_handler(int signal, siginfo_t *info, void *context) {
    int saved_errno = errno;
    esl_runtime *rt = esl_thread_runtime;
    lua_State *running = rt != NULL ? __atomic_load_n(&rt->running, __ATOMIC_ACQUIRE) : NULL;
    if (info != NULL && info->si_code == SI_TKILL && info->si_pid == getpid()) {
        /* The watchdog's: a late one (the thread has left Lua since) is dropped, never passed on. */
        if (running != NULL) esl_arm_hook(running);
    } else if (esl_previous_action.sa_flags & SA_SIGINFO) {
        if (esl_previous_action.sa_sigaction != NULL) esl_previous_action.sa_sigaction(signal, info, context);
    } else if (esl_previous_action.sa_handler != SIG_DFL && esl_previous_action.sa_handler != SIG_IGN) {
        esl_previous_action.sa_handler(signal);
    }
    errno = saved_errno;
}

static void esl_watch_setup(void) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&esl_watch_wake, &attributes);
    pthread_condattr_destroy(&attributes);
    struct sigaction action = {0};
    action.sa_sigaction = esl_alarm_handler;
    action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigfillset(&action.sa_mask);
    sigaction(ESL_ALARM_SIGNAL, &action, &esl_previous_action);
}

/* Whether a limit of the state has passed (a deadline), been asked for (an interrupt) or been met
   already in this call (taken, and kept, by the code that ran into it). */
static int esl_watch_due(esl_runtime *rt, long long now, long long *deadline) {
    *deadline = __atomic_load_n(&rt->deadline_ns, __ATOMIC_ACQUIRE);
    if (*deadline > 0 && now >= *deadline) return 1;
    if (__atomic_load_n(&rt->interrupted, __ATOMIC_ACQUIRE) || __atomic_load_n(&rt->memory_exceeded, __ATOMIC_ACQUIRE)) return 1;
    return rt->interrupt_flag != NULL && __atomic_load_n(rt->interrupt_flag, __ATOMIC_ACQUIRE) != 0;
}

static void *esl_watchdog_main(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* the process's signals are for its other threads */
    pid_t process = getpid();
    pthread_mutex_lock(&esl_watch_lock);
    for (;;) {
        long long now = esl_now_ns(), next = 0;
        for (struct esl_watch *watch = esl_watched; watch != NULL; watch = watch->next) {
            long long deadline, wake;
            int due = esl_watch_due(watch->rt, now, &deadline);
            if (__atomic_load_n(&watch->in_lua, __ATOMIC_SEQ_CST)) {
                if (due) {
                    /* Swift code on top (a host function) is left alone: the trampoline checks the
                       limits as it returns into Lua, and the next round signals Lua code again. */
                    if (__atomic_load_n(&watch->rt->enforcing, __ATOMIC_ACQUIRE))
                        syscall(SYS_tgkill, process, __atomic_load_n(&watch->thread, __ATOMIC_RELAXED), ESL_ALARM_SIGNAL);
                    wake = now + ESL_RESIGNAL_NS;
                } else if (deadline > 0) {
                    wake = deadline;
                } else {
                    continue;
                }
            } else if (deadline > now) {
                wake = deadline; /* set before its call starts */
            } else {
                continue; /* a deadline passed outside Lua is taken as the next call starts */
            }
            if (next == 0 || wake < next) next = wake;
        }
        esl_watch_planned = next;
        if (next == 0) {
            pthread_cond_wait(&esl_watch_wake, &esl_watch_lock);
        } else {
            struct timespec until = {.tv_sec = next / 1000000000LL, .tv_nsec = next % 1000000000LL};
            pthread_cond_timedwait(&esl_watch_wake, &esl_watch_lock, &until);
        }
    }
    return NULL;
}

/* 1 once the watchdog could not be started (no thread left): the limits' hook then stays on (atomic). */
static int esl_watch_failed;

/* Starts the watchdog once, under the lock. */
static void esl_watch_start_locked(void) {
    if (esl_watch_started) return;
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    if (pthread_create(&thread, &attributes, esl_watchdog_main, NULL) == 0)
        esl_watch_started = 1;
    else
        __atomic_store_n(&esl_watch_failed, 1, __ATOMIC_RELEASE);
    pthread_attr_destroy(&attributes);
}

int esl_watch_unavailable(void) {
    return __atomic_load_n(&esl_watch_failed, __ATOMIC_ACQUIRE);
}

int esl_watch_register(esl_runtime *rt) {
    pthread_once(&esl_watch_once, esl_watch_setup);
    struct esl_watch *watch = calloc(1, sizeof *watch);
    if (watch == NULL) return 0;
    watch->rt = rt;
    rt->watch = watch;
    pthread_mutex_lock(&esl_watch_lock);
    watch->next = esl_watched;
    if (esl_watched != NULL) esl_watched->previous = watch;
    esl_watched = watch;
    pthread_mutex_unlock(&esl_watch_lock);
    return 1;
}

void esl_watch_unregister(esl_runtime *rt) {
    struct esl_watch *watch = rt->watch;
    if (watch == NULL) return;
    pthread_mutex_lock(&esl_watch_lock);
    if (watch->previous != NULL) watch->previous->next = watch->next; else esl_watched = watch->next;
    if (watch->next != NULL) watch->next->previous = watch->previous;
    pthread_mutex_unlock(&esl_watch_lock);
    rt->watch = NULL;
    free(watch);
}

void esl_watch_deadline_set(esl_runtime *rt) {
    long long deadline = __atomic_load_n(&rt->deadline_ns, __ATOMIC_ACQUIRE);
    if (deadline == 0) return; /* nothing earlier to watch for: the watchdog finds out as it wakes */
    pthread_mutex_lock(&esl_watch_lock);
    esl_watch_start_locked();
    if (esl_watch_planned == 0 || deadline < esl_watch_planned) pthread_cond_signal(&esl_watch_wake);
    pthread_mutex_unlock(&esl_watch_lock);
}

void esl_watch_interrupt_asked(void) {
    pthread_mutex_lock(&esl_watch_lock);
    esl_watch_start_locked();
    pthread_cond_signal(&esl_watch_wake);
    pthread_mutex_unlock(&esl_watch_lock);
}

void esl_watch_enter(lua_State *L) {
    esl_runtime *rt = esl_runtime_of(L);
    struct esl_watch *watch = rt->watch;
    if (esl_thread_id == 0) {
        sigset_t alarm;
        sigemptyset(&alarm);
        sigaddset(&alarm, ESL_ALARM_SIGNAL);
        pthread_sigmask(SIG_UNBLOCK, &alarm, NULL);
        esl_thread_id = (pid_t)syscall(SYS_gettid);
    }
    watch->outer = esl_thread_runtime;
    esl_thread_runtime = rt;
    __atomic_store_n(&watch->thread, esl_thread_id, __ATOMIC_RELAXED);
    __atomic_store_n(&rt->running, L, __ATOMIC_RELEASE);
    __atomic_store_n(&watch->in_lua, 1, __ATOMIC_SEQ_CST);
    /* A deadline that passed before the call (while the watchdog saw no Lua code running) stops it at
       its first instruction. */
    long long deadline = __atomic_load_n(&rt->deadline_ns, __ATOMIC_ACQUIRE);
    if (deadline > 0 && esl_now_ns() >= deadline) esl_arm_hook(L);
}

void esl_watch_leave(lua_State *L) {
    esl_runtime *rt = esl_runtime_of(L);
    struct esl_watch *watch = rt->watch;
    /* A signal the watchdog sends on a stale view of in_lua finds running NULL, or is stale (above). */
    __atomic_store_n(&watch->in_lua, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&rt->running, NULL, __ATOMIC_RELEASE);
    esl_thread_runtime = watch->outer;
}
