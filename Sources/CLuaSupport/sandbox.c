/* The sandbox: which standard libraries a script sees, and what is taken out of them. */
#include "CLuaSupport.h"
#include <string.h>

/* `load` restricted to text chunks: binary chunks can break the VM's safety. */
static int esl_text_only_load(lua_State *L) {
    int nargs = lua_gettop(L);
    const char *mode = luaL_optstring(L, 3, "t");
    if (strcmp(mode, "t") != 0)
        return luaL_error(L, "load: mode '%s' is not allowed in the sandbox (only text chunks, mode \"t\")", mode);
    /* load tells a missing env from nil: keep it missing unless it was given. */
    lua_settop(L, nargs >= 4 ? 4 : 3);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* A message handler given to xpcall runs only while no limit has been hit: after a limit error the
   hook is off inside the handler (Lua disables hooks while one runs), so a looping handler could
   never be stopped. The error value then passes through untouched. */
static int esl_guarded_handler(lua_State *L) {
    if (esl_limit_exceeded(L)) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* The whole stack was handed to xpcall, so its results are all that is left. */
static int esl_finish_xpcall(lua_State *L, int status, lua_KContext unused) {
    (void)status;
    (void)unused;
    return lua_gettop(L);
}

static int esl_guarded_xpcall(lua_State *L) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    int nargs = lua_gettop(L);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, esl_guarded_handler, 1);
    lua_replace(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_callk(L, nargs, LUA_MULTRET, 0, esl_finish_xpcall);
    return esl_finish_xpcall(L, LUA_OK, 0);
}

/* Finalizers run with hooks off, out of reach of the instruction budget: scripts may not set them.
   Nor __close: a coroutine stopped by a limit is reset with hooks still off, running its pending
   to-be-closed handlers out of reach of every limit. */
static int esl_setmetatable_without_gc(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE && (lua_pushliteral(L, "__gc"), lua_rawget(L, 2)) != LUA_TNIL)
        return luaL_error(L, "setmetatable: __gc metamethods are not allowed in the sandbox");
    if (lua_type(L, 2) == LUA_TTABLE && (lua_pushliteral(L, "__close"), lua_rawget(L, 2)) != LUA_TNIL)
        return luaL_error(L, "setmetatable: __close metamethods are not allowed in the sandbox");
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* coroutine.create, with the count hook on the new thread whatever the limits are now: a thread
   copies its creator's hook only when it is made, so one made while no limit was set would escape a
   deadline set later. With no limit the hook does nothing, once per 1000 instructions. */
static int esl_create_with_hook(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    lua_State *thread = lua_tothread(L, -1);
    if (thread != NULL) esl_install_count_hook(thread);
    return 1;
}

/* coroutine.wrap, likewise: the thread is the first upvalue of the function it returns. */
static int esl_wrap_with_hook(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    if (lua_getupvalue(L, -1, 1) != NULL) {
        lua_State *thread = lua_tothread(L, -1);
        if (thread != NULL) esl_install_count_hook(thread);
        lua_pop(L, 1);
    }
    return 1;
}

static void esl_wrap_field(lua_State *L, const char *table, const char *name, lua_CFunction wrapper) {
    lua_getglobal(L, table);
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, wrapper, 1);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

static void esl_wrap_global(lua_State *L, const char *name, lua_CFunction wrapper) {
    lua_getglobal(L, name);
    lua_pushcclosure(L, wrapper, 1);
    lua_setglobal(L, name);
}

static void esl_require_library(lua_State *L, const char *name, lua_CFunction open) {
    luaL_requiref(L, name, open, 1);
    lua_pop(L, 1);
}

/* Replaces the string library's pattern functions with those that spend the instruction budget. */
static void esl_budget_pattern_functions(lua_State *L) {
    lua_getglobal(L, LUA_STRLIBNAME);
    esl_push_pattern_functions(L);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, -5);
    }
    lua_pop(L, 2);
}

static int esl_open_sandbox_protected(lua_State *L) {
    unsigned int allowed = (unsigned int)lua_tointeger(L, 1);
    esl_require_library(L, LUA_GNAME, luaopen_base);
    esl_require_library(L, LUA_TABLIBNAME, luaopen_table);
    esl_require_library(L, LUA_STRLIBNAME, luaopen_string);
    esl_budget_pattern_functions(L);
    esl_require_library(L, LUA_MATHLIBNAME, luaopen_math);
    esl_require_library(L, LUA_UTF8LIBNAME, luaopen_utf8);
    esl_require_library(L, LUA_COLIBNAME, luaopen_coroutine);
    if (allowed & ESL_LIB_IO) esl_require_library(L, LUA_IOLIBNAME, luaopen_io);
    if (allowed & ESL_LIB_DEBUG) esl_require_library(L, LUA_DBLIBNAME, luaopen_debug);

    if (allowed & ESL_LIB_OS) {
        esl_require_library(L, LUA_OSLIBNAME, luaopen_os);
    } else {
        /* Only the clock and calendar functions: nothing that reaches files, processes or the environment. */
        static const char *const kept[] = {"clock", "date", "difftime", "time", NULL};
        luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 0);
        lua_createtable(L, 0, 4);
        for (int i = 0; kept[i] != NULL; i++) {
            lua_getfield(L, -2, kept[i]);
            lua_setfield(L, -2, kept[i]);
        }
        lua_pushvalue(L, -1);
        lua_setglobal(L, LUA_OSLIBNAME);
        luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
        lua_pushvalue(L, -2);
        lua_setfield(L, -2, LUA_OSLIBNAME);
        lua_pop(L, 3);
    }

    /* Base library: no file access, text-only load. */
    lua_pushnil(L);
    lua_setglobal(L, "dofile");
    lua_pushnil(L);
    lua_setglobal(L, "loadfile");
    esl_wrap_global(L, "load", esl_text_only_load);
    esl_wrap_global(L, "xpcall", esl_guarded_xpcall);
    esl_wrap_global(L, "setmetatable", esl_setmetatable_without_gc);
    esl_wrap_field(L, LUA_COLIBNAME, "create", esl_create_with_hook);
    esl_wrap_field(L, LUA_COLIBNAME, "wrap", esl_wrap_with_hook);

    /* The string metatable is shared by every string: scripts may not see or change it. */
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushliteral(L, "string");
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 0;
}

int esl_open_sandbox(lua_State *L, unsigned int allowed) {
    lua_pushcclosure(L, esl_open_sandbox_protected, 0);
    lua_pushinteger(L, (lua_Integer)allowed);
    return lua_pcall(L, 1, 0, 0);
}
