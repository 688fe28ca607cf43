/* The C side of the bridge benchmarks: what the Swift bridge is measured against. */
#include "LuaBenchBaseline.h"
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int c_add(lua_State *L) {
    lua_Integer a = luaL_checkinteger(L, 1);
    lua_Integer b = luaL_checkinteger(L, 2);
    lua_pushinteger(L, a + b);
    return 1;
}

double lbb_lua_calls_c_add(const char *loop, long long calls, long long *result) {
    lua_State *L = luaL_newstate();
    if (L == NULL) return -1;
    luaL_openlibs(L);
    lua_pushcfunction(L, c_add);
    lua_setglobal(L, "add");
    if (luaL_loadstring(L, loop) != LUA_OK) { lua_close(L); return -1; }
    lua_pushinteger(L, (lua_Integer)calls);
    double start = now_ns();
    int status = lua_pcall(L, 1, 1, 0);
    double elapsed = now_ns() - start;
    if (status != LUA_OK) { lua_close(L); return -1; }
    *result = (long long)lua_tointeger(L, -1);
    lua_close(L);
    return elapsed;
}

double lbb_c_calls_lua_function(const char *chunk, long long calls, long long *result) {
    lua_State *L = luaL_newstate();
    if (L == NULL) return -1;
    luaL_openlibs(L);
    if (luaL_dostring(L, chunk) != LUA_OK || !lua_isfunction(L, -1)) { lua_close(L); return -1; }
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_Integer sum = 0;
    double start = now_ns();
    for (long long i = 0; i < calls; i++) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
        lua_pushinteger(L, sum);
        lua_pushinteger(L, 1);
        if (lua_pcall(L, 2, 1, 0) != LUA_OK) { lua_close(L); return -1; }
        sum = lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    double elapsed = now_ns() - start;
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
    *result = (long long)sum;
    lua_close(L);
    return elapsed;
}

double lbb_run_stock_chunk(const char *chunk, long long *result) {
    lua_State *L = luaL_newstate();
    if (L == NULL) return -1;
    luaL_openlibs(L);
    if (luaL_loadstring(L, chunk) != LUA_OK) { lua_close(L); return -1; }
    double start = now_ns();
    int status = lua_pcall(L, 0, 1, 0);
    double elapsed = now_ns() - start;
    if (status != LUA_OK) { lua_close(L); return -1; }
    *result = (long long)lua_tointeger(L, -1);
    lua_close(L);
    return elapsed;
}
