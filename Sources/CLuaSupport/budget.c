/* The instruction budget: a count hook that stops a runaway script, even inside its own pcall. */
#include "CLuaSupport.h"
#include <stdio.h>

static void esl_count_hook(lua_State *L, lua_Debug *ar);

/* Instructions between two calls of the hook: small enough to stop promptly. */
#define ESL_HOOK_STEP 1000

/* Raises the limit error from inside the hook. Level 0 in a hook is the running Lua function. */
static void esl_raise_from_hook(lua_State *L, const char *what) {
    /* From now on raise at every instruction of this thread until control is back in Swift. */
    lua_sethook(L, esl_count_hook, LUA_MASKCOUNT, 1);
    luaL_where(L, 0);
    lua_pushstring(L, what);
    lua_concat(L, 2);
    lua_error(L);
}

/* The hook is installed only while an instruction limit is set: any hook makes the VM check it at
   every instruction. It spends the budget once per ESL_HOOK_STEP instructions and makes the limits
   sticky, so a script's own pcall cannot catch a limit error and carry on. */
static void esl_count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    esl_runtime *rt = esl_runtime_of(L);
    if (rt->depth == 0) return; /* not inside a call made by the bridge */
    if (rt->memory_exceeded) esl_raise_from_hook(L, "memory limit exceeded");
    if (rt->instruction_limit <= 0) return;
    if (!rt->instruction_exceeded) {
        rt->instructions_left -= lua_gethookcount(L);
        if (rt->instructions_left > 0) {
            if (lua_gethookcount(L) != ESL_HOOK_STEP) lua_sethook(L, esl_count_hook, LUA_MASKCOUNT, ESL_HOOK_STEP);
            return;
        }
        rt->instruction_exceeded = 1;
    }
    char what[128];
    snprintf(what, sizeof what, "instruction limit exceeded: more than %lld instructions in one call into Lua",
             (long long)rt->instruction_limit);
    esl_raise_from_hook(L, what);
}

void esl_install_hook(lua_State *L) {
    if (esl_runtime_of(L)->instruction_limit > 0)
        lua_sethook(L, esl_count_hook, LUA_MASKCOUNT, ESL_HOOK_STEP);
    else
        lua_sethook(L, NULL, 0, 0);
}

void esl_set_instruction_limit(lua_State *L, long long limit) {
    esl_runtime_of(L)->instruction_limit = limit > 0 ? limit : 0;
    esl_install_hook(L);
}

int esl_limit_exceeded(lua_State *L) {
    esl_runtime *rt = esl_runtime_of(L);
    return rt->instruction_exceeded || rt->memory_exceeded;
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

void esl_ensure_budget_hook(lua_State *L) {
    if (lua_gethookcount(L) != ESL_HOOK_STEP) esl_install_hook(L);
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
    lua_pushliteral(L, "memory limit exceeded");
    return LUA_ERRMEM;
}
