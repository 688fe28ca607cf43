#ifndef ENVSCRIPT_CLUASUPPORT_H
#define ENVSCRIPT_CLUASUPPORT_H

/*
 * CLuaSupport: the only code of EnvScript that calls Lua functions which may raise (longjmp).
 *
 * Swift frames must never be crossed by a longjmp, so:
 *  - every Swift function called from Lua runs under esl_trampoline: Swift returns a result count, or a
 *    sentinel after pushing an error value, and the trampoline raises once the Swift frame is gone;
 *  - Swift enters Lua only through esl_pcall (protected);
 *  - the accounting allocator enforces the memory cap only while Lua code runs: an allocation made while a
 *    Swift frame is on top never fails for the cap (the trampoline raises the memory error on return).
 */

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stddef.h>
#include <stdint.h>

/* Returned by the Swift dispatcher to ask the trampoline to raise the value on top of the stack as is. */
#define ESL_RAISE (-1)
/* Same, but prefix the message with the calling Lua line (luaL_where), as luaL_error does. */
#define ESL_RAISE_WITH_POSITION (-2)

/* Pseudo-index of the registry: Swift cannot import LUA_REGISTRYINDEX, an expression macro. */
static const int ESL_REGISTRY_INDEX = LUA_REGISTRYINDEX;
static const lua_Integer ESL_RIDX_GLOBALS = LUA_RIDX_GLOBALS;

/* Calls the Swift function whose retained box pointer is given. Returns a result count or a sentinel. */
typedef int (*esl_dispatch_fn)(lua_State *L, void *box);
/* Releases a retained Swift object pointer (the __gc of boxes and object userdata). */
/* Told by a finalizer that Lua no longer holds a retained Swift object; must not run Swift code that
   may call into Lua (the finalizer runs inside whatever lua_* call collected the garbage). */
typedef void (*esl_release_fn)(lua_State *L, void *object);

/* Libraries a host may open beyond the sandbox's base, table, string, math, utf8, coroutine. */
enum {
    ESL_LIB_IO = 1 << 0,     /* the whole io library */
    ESL_LIB_OS = 1 << 1,     /* the whole os library (else only clock, date, difftime, time) */
    ESL_LIB_DEBUG = 1 << 2,  /* the debug library: lets scripts remove the instruction budget */
};

/* Line counts of coverage (coverage.c). */
typedef struct esl_coverage esl_coverage;

/* Per-state bookkeeping shared by the allocator, the count hook and the trampoline. */
typedef struct esl_runtime {
    size_t bytes_in_use;
    size_t peak_bytes;
    size_t memory_limit;          /* 0: no cap */
    size_t host_kept_bytes;       /* what the host keeps for the script (values a host function kept),
                                     counted with bytes_in_use against memory_limit */
    int enforcing;                /* 1 while Lua code runs with no Swift frame on top */
    int memory_exceeded;          /* an allocation was refused for the cap during this entry */
    long long instruction_limit;  /* per entry into Lua from Swift; 0: none */
    long long instructions_left;
    int instruction_exceeded;     /* stays set until the next entry from Swift: pcall cannot swallow it */
    long long deadline_ns;        /* CLOCK_MONOTONIC time (esl_now_ns) after which Lua code stops; 0: none */
    int time_exceeded;            /* the deadline passed during this entry; sticky like the others */
    char time_limit_message[200]; /* the error raised when the deadline passes */
    int *interrupt_flag;          /* set from any thread (esl_request_interrupt), read atomically; owned
                                     by the Swift side, so that it outlives the state; NULL: none */
    int interrupted;              /* an interrupt was taken during this entry; sticky like the limits */
    int depth;                    /* nesting of esl_pcall */
    lua_State *active;            /* the thread that called into Swift; NULL at top level */
    esl_dispatch_fn dispatch;
    esl_release_fn release;
    void *owner;                  /* the Swift object that owns the state (unretained) */
    esl_coverage *coverage;       /* line counts while coverage is on; NULL: off */
    lua_State *running;           /* the thread (maybe a coroutine) running Lua code now, while in a call
                                     from Swift: the one the watchdog's signal arms (atomic) */
    struct esl_watch *watch;      /* the watchdog's record of the state (watchdog.c) */
} esl_runtime;

/* Creates a state whose allocator accounts into (and is capped by) a new runtime. NULL when out of memory. */
lua_State *esl_newstate(esl_dispatch_fn dispatch, esl_release_fn release);
/* The runtime of a state (or of any of its threads). */
static inline esl_runtime *esl_runtime_of(lua_State *L) {
    /* The extra space holds the runtime's pointer; its lowest bit (a runtime is aligned) marks a
       coroutine stopped by a limit (sandbox.c), set without allocating anything. */
    return (esl_runtime *)(*(uintptr_t *)lua_getextraspace(L) & ~(uintptr_t)1);
}
/* Closes the state (running finalizers) and frees its runtime. */
void esl_close(lua_State *L);

/* The registry field holding the package.path stock Lua would have started with. */
#define ESL_SYSTEM_PATH_KEY "envscript.system_path"
/* Turns line coverage on for the state and all its threads (from now on, and for coroutines made
   later): every line of a chunk the host loaded from a file after this counts as it runs. Returns 0 when out of memory. */
int esl_coverage_start(lua_State *L);
/* Notes a chunk the host loaded from the file `name` (its chunk name without '@'): only such chunks'
   lines count. Does nothing while coverage is off. */
void esl_coverage_note_file(lua_State *L, const char *name);
/* Records a line event (the budget's hook calls it). */
void esl_coverage_record(lua_State *L, lua_Debug *ar);
/* The files counted so far, each's chunk name (without '@') and line counts (index = line number). */
int esl_coverage_file_count(lua_State *L);
const char *esl_coverage_file_name(lua_State *L, int index);
int esl_coverage_file_lines(lua_State *L, int index, const unsigned long long **hits);
/* Frees the counts (when the state closes). */
void esl_coverage_free(esl_coverage *coverage);
/* Pops a loadfile function and pushes a dofile that loads through it (raising its message) and runs
   the chunk: the sandbox's dofile over the host's loadfile. */
void esl_push_dofile_through(lua_State *L);
/* Opens the sandboxed standard libraries plus the opted-in ones (ESL_LIB_*). Returns a Lua status;
   on error the message is on the stack. */
int esl_open_sandbox(lua_State *L, unsigned int allowed);

/* Installs (limit > 0) or removes (0) the per-entry instruction budget on the main thread. */
void esl_set_instruction_limit(lua_State *L, long long limit);
/* Installs the count hook on a thread when the instruction budget or coverage needs it, removes it
   otherwise (deadlines and interrupts arm it through the watchdog). */
void esl_install_hook(lua_State *L);
/* Arms the limits' hook on a thread for its next instruction: it raises a limit that has passed, or
   puts the thread's usual hook back. Safe in a signal handler on the thread running `L` (lua_sethook). */
void esl_arm_hook(lua_State *L);
/* The watchdog (watchdog.c): time limits and interrupts without a hook until they fire. A state is
   registered as it is made and unregistered as it closes; 0 when out of memory. */
int esl_watch_register(esl_runtime *rt);
void esl_watch_unregister(esl_runtime *rt);
/* Tells the watchdog the state's deadline changed (after rt->deadline_ns is set). */
void esl_watch_deadline_set(esl_runtime *rt);
/* Tells the watchdog an interrupt flag was set. */
void esl_watch_interrupt_asked(void);
/* 1 when the watchdog thread could not be started: the hook then stays on for deadlines and interrupts. */
int esl_watch_unavailable(void);
/* The start and end of an outermost call into Lua from Swift on the current thread. */
void esl_watch_enter(lua_State *L);
void esl_watch_leave(lua_State *L);
/* Forgets that a time limit was exceeded when the deadline now set (an outer one, restored after an
   inner limit fired) has not passed: the outer caller goes on. */
void esl_clear_passed_time_limit(lua_State *L);
/* Whether the current call into Lua has run out of instructions, memory or time. */
int esl_limit_exceeded(lua_State *L);
/* Now on CLOCK_MONOTONIC, in nanoseconds: the clock of deadlines. */
long long esl_now_ns(void);
/* Sets (deadline_ns > 0) or removes (0) the time after which Lua code stops with `message` (copied,
   cut at 199 bytes), and tells the watchdog. */
void esl_set_deadline(lua_State *L, long long deadline_ns, const char *message);
/* Asks the Lua code running now to stop as if its time limit had passed, with the error "interrupted":
   safe from any thread (Ctrl-C in the REPL). The watchdog stops the Lua code at its next instruction
   (after the C call running now, if any), or as Swift code it called returns; a call into Lua that
   starts afterwards forgets it. */
void esl_request_interrupt(int *flag);
/* Spends `steps` of the instruction budget and checks the other limits (memory, time); raises the
   limit's error, with the position of the Lua function `level` levels up, once one is exceeded. Called
   by the count hook and by C functions that do long work without running VM instructions (the pattern
   matcher). Does nothing outside a call made by the bridge. */
void esl_spend(lua_State *L, long long steps, int level);
/* Raises the error of a limit already exceeded or of a deadline that has passed; returns otherwise.
   Run before every host function, so none runs once a limit is hit. */
void esl_check_limits(lua_State *L, int level);
/* Pushes a table with the sandbox's string.find, match, gmatch and gsub: stock Lua's results, with
   every step of the pattern matcher charged to the instruction budget and checked against the time
   limit. The sandbox puts them in the string library; tests compare them with stock Lua's. */
void esl_push_pattern_functions(lua_State *L);
/* Replaces string.rep, table.move, table.insert, table.remove, table.concat and table.sort (already
   opened) with versions that give stock Lua's results and charge every step of their loops to the
   instruction budget, checking the other limits: stock ones loop in C out of reach of the count hook. */
void esl_bound_long_calls(lua_State *L);

/* The message handler of every call from Swift: adds a traceback to the message. */
int esl_message_handler(lua_State *L);
/* Makes sure `L` has the hook the limits need (for the instruction budget or coverage) and no other:
   none at all when neither is on, so the VM runs at full speed. */
void esl_ensure_hook(lua_State *L);
/* Starts an outermost call into Lua: a fresh instruction budget, limit flags cleared. Inline: it runs
   on every call from Swift. */
static inline void esl_enter_outermost(lua_State *L) {
    esl_runtime *rt = esl_runtime_of(L);
    rt->instructions_left = rt->instruction_limit;
    rt->instruction_exceeded = 0;
    /* Atomic: the watchdog reads them (watchdog.c). */
    __atomic_store_n(&rt->memory_exceeded, 0, __ATOMIC_RELAXED);
    rt->time_exceeded = 0;
    __atomic_store_n(&rt->interrupted, 0, __ATOMIC_RELAXED);
    if (rt->interrupt_flag != NULL) __atomic_store_n(rt->interrupt_flag, 0, __ATOMIC_RELAXED);
    esl_ensure_hook(L);
}
/* Turns a call that returned after a script's pcall swallowed a limit error into that error: drops
   the results (those above `msgh` when it is an absolute index, else the last `nresults`) and pushes
   the message. Returns the status to report. */
int esl_fail_swallowed_limit(lua_State *L, int msgh, int nresults);

/* lua_pcall with the runtime's bookkeeping: resets the budget on an outermost entry, enforces the memory
   cap while Lua runs, and turns an exhausted limit into an error even if a script's pcall swallowed it.
   `msgh` may be relative (negative) when `nresults` is fixed. Inline (like the helpers below) because
   it sits on the path of every call from Swift. */
static inline int esl_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    esl_runtime *rt = esl_runtime_of(L);
    int outermost = rt->depth == 0;
    lua_State *was_running = rt->running;
    if (outermost) {
        esl_enter_outermost(L);
        esl_watch_enter(L);
    } else {
        __atomic_store_n(&rt->running, L, __ATOMIC_RELEASE);
    }
    int was_enforcing = rt->enforcing;
    __atomic_store_n(&rt->enforcing, 1, __ATOMIC_RELEASE);
    rt->depth++;
    int status = lua_pcall(L, nargs, nresults, msgh);
    rt->depth--;
    __atomic_store_n(&rt->enforcing, was_enforcing, __ATOMIC_RELEASE);
    if (outermost)
        esl_watch_leave(L);
    else
        __atomic_store_n(&rt->running, was_running, __ATOMIC_RELEASE);
    if (status == LUA_OK && (rt->instruction_exceeded | rt->memory_exceeded | rt->time_exceeded))
        status = esl_fail_swallowed_limit(L, msgh, nresults);
    return status;
}

/* Pushes the message handler; returns its index, to pass to esl_pcall as msgh. */
static inline int esl_push_handler(lua_State *L) {
    lua_pushcfunction(L, esl_message_handler);
    return lua_gettop(L);
}

/* Pushes the message handler and the value of registry ref `ref`, for a call whose handler is then
   at the relative index -(nargs + 2) once the arguments are pushed. */
static inline void esl_push_handler_then_ref(lua_State *L, int ref) {
    lua_pushcfunction(L, esl_message_handler);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
}

/* Pushes the message handler and the value of registry ref `ref`; returns the handler's index. */
static inline int esl_push_handler_and_ref(lua_State *L, int ref) {
    int handler = esl_push_handler(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    return handler;
}

/* Pushes a Lua function that calls the Swift box (a retained pointer, released by the function's __gc). */
void esl_push_swift_function(lua_State *L, void *box);
/* Pushes a full userdata holding a retained Swift object, with the metatable registered under
   `metatable` (created empty if new) and the shared __gc that releases the object. */
void esl_push_swift_object(lua_State *L, void *object, const char *metatable);
/* The retained Swift object of a userdata made by esl_push_swift_object, or NULL for any other value. */
void *esl_to_swift_object(lua_State *L, int index);
/* Prepares the metatable `name` for Swift objects (with __gc); leaves it on the stack. */
void esl_new_object_metatable(lua_State *L, const char *name);

/* Inline shims for macros Swift cannot import. */
static inline const char *esl_typename(lua_State *L, int i) { return lua_typename(L, lua_type(L, i)); }
static inline void esl_collect_garbage(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
/* Loads a text chunk from memory; never raises. */
static inline int esl_load_text(lua_State *L, const void *bytes, size_t size, const char *chunkname) {
    return luaL_loadbufferx(L, bytes ? (const char *)bytes : "", size, chunkname, "t");
}
/* Loads a binary (precompiled) chunk from memory; never raises. Lua does not check bytecode: only for
   chunks the program compiled itself, never for a script's input. */
static inline int esl_load_binary(lua_State *L, const void *bytes, size_t size, const char *chunkname) {
    return luaL_loadbufferx(L, bytes ? (const char *)bytes : "", size, chunkname, "b");
}
/* `lua_ident` of the Lua library the process runs with (Swift does not import arrays of unknown size). */
static inline const char *esl_lua_ident(void) { return lua_ident; }
static inline void esl_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
static inline void esl_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline int esl_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline void esl_pushglobaltable(lua_State *L) { lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS); }

#endif
