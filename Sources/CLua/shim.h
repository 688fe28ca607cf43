#ifndef ENVSCRIPT_CLUA_SHIM_H
#define ENVSCRIPT_CLUA_SHIM_H
/* Lua 5.4 as installed by Debian's liblua5.4-dev (headers under /usr/include/lua5.4). */
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#endif
