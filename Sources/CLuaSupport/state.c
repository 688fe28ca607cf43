/* The state and its runtime: the accounting allocator that enforces the memory cap (on the Lua heap and
   what the host keeps for the script together). */
#include "CLuaSupport.h"
#include <stdio.h>
#include <stdlib.h>

static void *esl_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    esl_runtime *rt = (esl_runtime *)ud;
    size_t old = ptr ? osize : 0; /* with ptr == NULL, osize encodes the kind of object */
    if (nsize == 0) {
        free(ptr);
        rt->bytes_in_use -= old;
        return NULL;
    }
    /* Once the cap is hit, every growth fails until control is back in Swift: a script's pcall
       may catch the memory error, but it cannot go on allocating. */
    if (rt->memory_limit && rt->enforcing && nsize > old &&
        (rt->memory_exceeded || rt->bytes_in_use - old + nsize + rt->host_kept_bytes > rt->memory_limit)) {
        /* A script that catches the memory error stops at its next instruction. */
        if (!rt->memory_exceeded && rt->running != NULL) esl_arm_hook(rt->running);
        __atomic_store_n(&rt->memory_exceeded, 1, __ATOMIC_RELEASE); /* the watchdog reads it */
        return NULL; /* Lua raises a memory error inside its own protected call */
    }
    void *block = realloc(ptr, nsize);
    if (block == NULL) {
        /* Out of system memory while a Swift frame may be on top: a longjmp now would cross it. */
        if (!rt->enforcing) {
            fputs("envscript: out of memory while Swift code was calling Lua\n", stderr);
            abort();
        }
        return NULL;
    }
    rt->bytes_in_use = rt->bytes_in_use - old + nsize;
    if (rt->bytes_in_use > rt->peak_bytes) rt->peak_bytes = rt->bytes_in_use;
    return block;
}

static int esl_panic(lua_State *L) {
    const char *message = lua_tostring(L, -1);
    fprintf(stderr, "envscript: unprotected Lua error (a bug in EnvScript): %s\n",
            message ? message : "(no message)");
    abort();
    return 0;
}

lua_State *esl_newstate(esl_dispatch_fn dispatch, esl_release_fn release) {
    esl_runtime *rt = calloc(1, sizeof(esl_runtime));
    if (rt == NULL) return NULL;
    rt->dispatch = dispatch;
    rt->release = release;
    lua_State *L = lua_newstate(esl_alloc, rt);
    if (L == NULL) {
        free(rt);
        return NULL;
    }
    if (!esl_watch_register(rt)) {
        lua_close(L);
        free(rt);
        return NULL;
    }
    /* Threads created later copy the main thread's extra space, so every thread finds the runtime. */
    *(esl_runtime **)lua_getextraspace(L) = rt;
    lua_atpanic(L, esl_panic);
    return L;
}

void esl_close(lua_State *L) {
    esl_runtime *rt = esl_runtime_of(L);
    __atomic_store_n(&rt->enforcing, 0, __ATOMIC_RELEASE);
    lua_close(L);
    esl_watch_unregister(rt);
    esl_coverage_free(rt->coverage);
    free(rt);
}
