/* The sandbox: which standard libraries a script sees, and what is taken out of them. */
#include "CLuaSupport.h"
#include <string.h>

/* `load` restricted to text chunks: binary chunks can break the VM's safety. */
static int esl_text_only_load(lua_State *L) {
    int nargs = lua_gettop(L);
    const char *mode = luaL_optstring(L, 3, "t");
    if (strcmp(mode, "t") != 0)
        return luaL_error(L, "load: mode '%s' is not allowed in the sandbox (only text chunks, mode \"t\")", mode);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushliteral(L, "t");
    if (nargs >= 4) lua_pushvalue(L, 4); /* load tells a missing env from nil: keep it missing */
    lua_call(L, nargs >= 4 ? 4 : 3, LUA_MULTRET);
    return lua_gettop(L) - nargs;
}

static void esl_require_library(lua_State *L, const char *name, lua_CFunction open) {
    luaL_requiref(L, name, open, 1);
    lua_pop(L, 1);
}

static int esl_open_sandbox_protected(lua_State *L) {
    unsigned int allowed = (unsigned int)lua_tointeger(L, 1);
    esl_require_library(L, LUA_GNAME, luaopen_base);
    esl_require_library(L, LUA_TABLIBNAME, luaopen_table);
    esl_require_library(L, LUA_STRLIBNAME, luaopen_string);
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
    lua_getglobal(L, "load");
    lua_pushcclosure(L, esl_text_only_load, 1);
    lua_setglobal(L, "load");

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
