/* The limits on a call into Lua: an instruction budget spent by a count hook, a wall-clock deadline and
   interrupts, all stopping a runaway script even inside its own pcall. The hook is installed only while
   the budget or coverage needs it (any hook makes the VM trap at every instruction); a deadline or an
   interrupt arms it for one instruction when it fires (watchdog.c). */
#include "CLuaSupport.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

static void esl_count_hook(lua_State *L, lua_Debug *ar);

/* The hook's events: the count, and each new line while coverage is on. */
static int esl_hook_mask(lua_State *L) {
    return LUA_MASKCOUNT | (esl_runtime_of(L)->coverage != NULL ? LUA_MASKLINE : 0);
}

/* Whether the hook must stay on: for the budget, or for coverage. Deadlines and interrupts arm it,
   unless the watchdog could not be started. */
static int esl_needs_hook(esl_runtime *rt) {
    return rt->instruction_limit > 0 || rt->coverage != NULL ||
           (esl_watch_unavailable() && (rt->deadline_ns > 0 || rt->interrupt_flag != NULL));
}

/* Instructions between two calls of the hook: small enough to stop promptly. */
#define ESL_HOOK_STEP 1000

long long esl_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* Raises a limit's error at the position of the Lua function `level` levels up (0 inside a hook: the
   running function). From now on the thread raises at every instruction until control is back in
   Swift, so a script's pcall that catches the error cannot carry on. */
static void esl_raise_limit(lua_State *L, int level, const char *what) {
    lua_sethook(L, esl_count_hook, LUA_MASKCOUNT, 1);
    luaL_where(L, level);
    lua_pushstring(L, what);
    lua_concat(L, 2);
    lua_error(L);
}

static void esl_raise_instruction_limit(lua_State *L, int level) {
    char what[128];
    snprintf(what, sizeof what, "instruction limit exceeded: more than %lld instructions in one call into Lua",
             (long long)esl_runtime_of(L)->instruction_limit);
    esl_raise_limit(L, level, what);
}

void esl_check_limits(lua_State *L, int level) {
    esl_runtime *rt = esl_runtime_of(L);
    if (rt->depth == 0) return; /* not inside a call made by the bridge */
    if (rt->memory_exceeded) esl_raise_limit(L, level, "memory limit exceeded");
    if (rt->instruction_exceeded) esl_raise_instruction_limit(L, level);
    /* Read before the exchange: a locked exchange on every host call costs a third of the call. */
    if (rt->interrupt_flag != NULL && __atomic_load_n(rt->interrupt_flag, __ATOMIC_RELAXED) &&
        __atomic_exchange_n(rt->interrupt_flag, 0, __ATOMIC_RELAXED))
        __atomic_store_n(&rt->interrupted, 1, __ATOMIC_RELEASE); /* the watchdog reads it */
    /* Unlike a passed deadline, no inner limit's end forgets it (esl_clear_passed_time_limit). */
    if (rt->interrupted) esl_raise_limit(L, level, "interrupted");
    if (rt->time_exceeded || (rt->deadline_ns > 0 && esl_now_ns() >= rt->deadline_ns)) {
        rt->time_exceeded = 1;
        esl_raise_limit(L, level, rt->time_limit_message);
    }
}

void esl_spend(lua_State *L, long long steps, int level) {
    esl_runtime *rt = esl_runtime_of(L);
    if (rt->depth == 0) return;
    if (rt->instruction_limit > 0 && !rt->instruction_exceeded) {
        rt->instructions_left -= steps;
        if (rt->instructions_left <= 0) rt->instruction_exceeded = 1;
    }
    esl_check_limits(L, level);
}

/* The hook is installed only while a limit needs it: any hook makes the VM check it at every
   instruction. It spends the budget once per ESL_HOOK_STEP instructions; armed for one instruction by
   the watchdog, it raises the limit that passed, or (a stale alarm) puts the usual hook back. */
static void esl_count_hook(lua_State *L, lua_Debug *ar) {
    if (ar->event == LUA_HOOKLINE) {
        esl_coverage_record(L, ar);
        return;
    }
    esl_spend(L, lua_gethookcount(L), 0);
    if (lua_gethookcount(L) != ESL_HOOK_STEP) esl_install_hook(L);
}

void esl_arm_hook(lua_State *L) {
    lua_sethook(L, esl_count_hook, esl_hook_mask(L), 1);
}

void esl_request_interrupt(int *flag) {
    __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
    esl_watch_interrupt_asked();
}

void esl_clear_passed_time_limit(lua_State *L) {
    esl_runtime *rt = esl_runtime_of(L);
    if (rt->time_exceeded && (rt->deadline_ns == 0 || esl_now_ns() < rt->deadline_ns)) rt->time_exceeded = 0;
}

void esl_install_hook(lua_State *L) {
    if (esl_needs_hook(esl_runtime_of(L)))
        lua_sethook(L, esl_count_hook, esl_hook_mask(L), ESL_HOOK_STEP);
    else
        lua_sethook(L, NULL, 0, 0);
}

void esl_set_instruction_limit(lua_State *L, long long limit) {
    esl_runtime *rt = esl_runtime_of(L);
    rt->instruction_limit = limit > 0 ? limit : 0;
    esl_install_hook(L);
    /* A callback runs on the thread that called into Swift, maybe a coroutine. */
    if (rt->active != NULL && rt->active != L) esl_install_hook(rt->active);
}

void esl_set_deadline(lua_State *L, long long deadline_ns, const char *message) {
    esl_runtime *rt = esl_runtime_of(L);
    snprintf(rt->time_limit_message, sizeof rt->time_limit_message, "%s",
             message != NULL && message[0] != '\0' ? message : "time limit exceeded");
    __atomic_store_n(&rt->deadline_ns, deadline_ns > 0 ? deadline_ns : 0, __ATOMIC_RELEASE);
    esl_watch_deadline_set(rt);
}

int esl_limit_exceeded(lua_State *L) {
    esl_runtime *rt = esl_runtime_of(L);
    return rt->instruction_exceeded || rt->memory_exceeded || rt->time_exceeded || rt->interrupted;
}

int esl_message_handler(lua_State *L) {
    if (lua_tostring(L, 1) != NULL) {
        lua_pushvalue(L, 1);
    } else if (!(luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)) {
        lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    /* The message is joined to the traceback as a Lua string, not handed to luaL_traceback as a C
       string, so a message holding a zero byte arrives whole. */
    lua_pushliteral(L, "\n");
    luaL_traceback(L, L, NULL, 1);
    lua_concat(L, 3);
    return 1;
}

void esl_ensure_hook(lua_State *L) {
    lua_Hook current = lua_gethook(L);
    /* A script's own hook (debug.sethook, with the debug library granted) is left as stock Lua keeps it;
       the watchdog's alarm still replaces it when a limit fires. */
    if (current != NULL && current != esl_count_hook) return;
    if (esl_needs_hook(esl_runtime_of(L))) {
        if (lua_gethookcount(L) != ESL_HOOK_STEP || lua_gethookmask(L) != esl_hook_mask(L)) esl_install_hook(L);
    } else if (lua_gethookmask(L) != 0) {
        lua_sethook(L, NULL, 0, 0);
    }
}

int esl_fail_swallowed_limit(lua_State *L, int msgh, int nresults) {
    esl_runtime *rt = esl_runtime_of(L);
    if (msgh > 0)
        lua_settop(L, msgh);
    else if (nresults > 0)
        lua_pop(L, nresults);
    if (rt->instruction_exceeded) {
        lua_pushfstring(L, "instruction limit exceeded: more than %I instructions in one call into Lua",
                        (LUAI_UACINT)rt->instruction_limit);
        return LUA_ERRRUN;
    }
    if (rt->interrupted) {
        lua_pushliteral(L, "interrupted");
        return LUA_ERRRUN;
    }
    if (rt->time_exceeded) {
        lua_pushstring(L, rt->time_limit_message);
        return LUA_ERRRUN;
    }
    lua_pushliteral(L, "memory limit exceeded");
    return LUA_ERRMEM;
}
