/* The C side of Swift functions and objects called from Lua: raises only after Swift has returned. */
#include "CLuaSupport.h"

static const char *const ESL_BOX_METATABLE = "envscript.swift-box";
static const char *const ESL_OBJECT_METATABLES = "envscript.object-metatables";

static int esl_release_gc(lua_State *L) {
    void **slot = (void **)lua_touserdata(L, 1);
    if (slot != NULL && *slot != NULL) {
        void *object = *slot;
        *slot = NULL;
        esl_runtime_of(L)->release(L, object);
    }
    return 0;
}

static int esl_trampoline(lua_State *L) {
    esl_runtime *rt = esl_runtime_of(L);
    void **slot = (void **)lua_touserdata(L, lua_upvalueindex(1));
    if (slot == NULL || *slot == NULL) {
        return luaL_error(L, "the Swift function was released");
    }
    void *box = *slot;
    /* Once a limit is hit, no host function runs until control is back in Swift. */
    esl_check_limits(L, 1);
    lua_State *saved_active = rt->active;
    int was_enforcing = rt->enforcing;
    rt->active = L;
    /* Atomic: the watchdog reads it to leave Swift code alone (watchdog.c). */
    __atomic_store_n(&rt->enforcing, 0, __ATOMIC_RELEASE);
    int results = rt->dispatch(L, box);
    rt->active = saved_active;
    __atomic_store_n(&rt->enforcing, was_enforcing, __ATOMIC_RELEASE);
    if (results >= 0) {
        /* A limit that passed while Swift ran is raised as control returns into Lua. */
        esl_check_limits(L, 1);
        if (was_enforcing && rt->memory_limit && rt->bytes_in_use + rt->host_kept_bytes > rt->memory_limit) {
            __atomic_store_n(&rt->memory_exceeded, 1, __ATOMIC_RELEASE);
            return luaL_error(L, "not enough memory (memory limit reached by a host function)");
        }
        return results;
    }
    if (results == ESL_RAISE_WITH_POSITION) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

void esl_push_swift_function(lua_State *L, void *box) {
    void **slot = (void **)lua_newuserdatauv(L, sizeof(void *), 0);
    *slot = box;
    if (luaL_newmetatable(L, ESL_BOX_METATABLE)) {
        lua_pushcclosure(L, esl_release_gc, 0);
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, esl_trampoline, 1);
}

void esl_new_object_metatable(lua_State *L, const char *name) {
    if (luaL_newmetatable(L, name)) {
        lua_pushcclosure(L, esl_release_gc, 0);
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        /* Remember it as a metatable of Swift objects, so esl_to_swift_object can trust the layout. */
        if (lua_getfield(L, LUA_REGISTRYINDEX, ESL_OBJECT_METATABLES) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_createtable(L, 0, 4);
            lua_pushvalue(L, -1);
            lua_setfield(L, LUA_REGISTRYINDEX, ESL_OBJECT_METATABLES);
        }
        lua_pushvalue(L, -2);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
        lua_pop(L, 1);
    }
}

void esl_push_swift_object(lua_State *L, void *object, const char *metatable) {
    void **slot = (void **)lua_newuserdatauv(L, sizeof(void *), 0);
    *slot = object;
    esl_new_object_metatable(L, metatable);
    lua_setmetatable(L, -2);
}

void *esl_to_swift_object(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TUSERDATA || !lua_getmetatable(L, index)) return NULL;
    int known = 0;
    if (lua_getfield(L, LUA_REGISTRYINDEX, ESL_OBJECT_METATABLES) == LUA_TTABLE) {
        lua_pushvalue(L, -2);
        known = lua_rawget(L, -2) == LUA_TBOOLEAN;
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    return known ? *(void **)lua_touserdata(L, index) : NULL;
}
