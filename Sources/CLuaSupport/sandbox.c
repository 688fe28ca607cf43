/* The sandbox: which standard libraries a script sees, and what is taken out of them. */
#include "CLuaSupport.h"
#include <string.h>

static int esl_is_own_dump(lua_State *L, int index);

/* `load` that never loads a binary chunk (binary chunks can break the VM's safety) but one
   string.dump made in this state (see esl_recording_dump below), and otherwise answers as stock Lua: the chunk is always compiled as text, and the mode the script gave decides
   what it is told. A text chunk under a mode without 't' and a binary chunk under a mode without 'b'
   get stock Lua's message; a binary chunk under a mode with 'b' is refused by name. Failures are
   `nil, message`, never errors, as in stock Lua. */
static int esl_text_only_load(lua_State *L) {
    int nargs = lua_gettop(L);
    /* The original's argument errors would name '?': check here what it checks. */
    if (lua_type(L, 1) != LUA_TSTRING && lua_type(L, 1) != LUA_TNUMBER) luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_optstring(L, 2, NULL);
    const char *mode = luaL_optstring(L, 3, "bt");
    int allows_text = strchr(mode, 't') != NULL, allows_binary = strchr(mode, 'b') != NULL;
    int own_dump = allows_binary && esl_is_own_dump(L, 1);
    /* load tells a missing env from nil: keep it missing unless it was given. */
    lua_settop(L, nargs >= 4 ? 4 : 3);
    if (own_dump) lua_pushliteral(L, "b"); else lua_pushliteral(L, "t");
    lua_replace(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 2);
    if (!lua_isnil(L, -2)) {
        if (allows_text || own_dump) { lua_pop(L, 1); return 1; }
        lua_pushnil(L);
        lua_pushfstring(L, "attempt to load a text chunk (mode is '%s')", mode);
        return 2;
    }
    const char *message = lua_tostring(L, -1);
    if (message != NULL && strcmp(message, "attempt to load a binary chunk (mode is 't')") == 0) {
        lua_pop(L, 1);
        if (allows_binary)
            lua_pushliteral(L, "attempt to load a binary chunk (binary chunks are not allowed in the sandbox)");
        else
            lua_pushfstring(L, "attempt to load a binary chunk (mode is '%s')", mode);
    }
    return 2;
}

/* With io opened (--allow io), loadfile and dofile come back, text chunks only as load. */
static int esl_text_only_loadfile(lua_State *L) {
    const char *file = luaL_optstring(L, 1, NULL);
    const char *mode = luaL_optstring(L, 2, "bt");
    int has_env = !lua_isnone(L, 3);
    if (luaL_loadfilex(L, file, "t") != LUA_OK) {
        const char *message = lua_tostring(L, -1);
        if (message != NULL && strcmp(message, "attempt to load a binary chunk (mode is 't')") == 0) {
            lua_pop(L, 1);
            if (strchr(mode, 'b') != NULL)
                lua_pushliteral(L, "attempt to load a binary chunk (binary chunks are not allowed in the sandbox)");
            else
                lua_pushfstring(L, "attempt to load a binary chunk (mode is '%s')", mode);
        }
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (strchr(mode, 't') == NULL) {
        luaL_pushfail(L);
        lua_pushfstring(L, "attempt to load a text chunk (mode is '%s')", mode);
        return 2;
    }
    if (has_env) {
        lua_pushvalue(L, 3);
        if (lua_setupvalue(L, -2, 1) == NULL) lua_pop(L, 1);
    }
    return 1;
}

static int esl_finish_dofile(lua_State *L, int status, lua_KContext first) {
    (void)status;
    return lua_gettop(L) - (int)first;
}

static int esl_text_only_dofile(lua_State *L) {
    const char *file = luaL_optstring(L, 1, NULL);
    lua_settop(L, 1);
    if (luaL_loadfilex(L, file, "t") != LUA_OK) return lua_error(L);
    lua_callk(L, 0, LUA_MULTRET, 1, esl_finish_dofile);
    return esl_finish_dofile(L, LUA_OK, 1);
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

/* Finalizers (__gc) within the limits.
   Lua runs finalizers with hooks off, out of reach of every limit: a finalizer that loops would never
   stop. So the sandbox never lets Lua mark a table for finalization. Instead setmetatable gives a table
   whose metatable has __gc a sentinel: a userdata of its own (with a C __gc) whose user value is the
   table, kept in an ephemeron table keyed by the table. The sentinel lives as long as the table does
   and no longer (an ephemeron's value does not keep its key alive); once the table is garbage, Lua
   resurrects the sentinel, and the table through it, to run the sentinel's C finalizer, which only
   queues the table. The queue is drained — each table's __gc, as its metatable has it then, called
   as an ordinary Lua call under the limits, its errors ignored as Lua ignores a finalizer's — by
   collectgarbage (after collecting, as stock Lua runs finalizers there) and by setmetatable itself
   (stock Lua runs them at any allocation). Finalizers still queued when the state closes do not run. */
static const char esl_sentinels_key = 0;
static const char esl_finalize_queue_key = 0;
static const char esl_sentinel_meta_key = 0;

/* Pushes the registry table at `key`, made (with `mode` as its __mode, when given) on first use. */
static void esl_push_registry_table(lua_State *L, const void *key, const char *mode) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_newtable(L);
    if (mode != NULL) {
        lua_createtable(L, 0, 1);
        lua_pushstring(L, mode);
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
    }
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/* The sentinel's finalizer: queues its table, unless the table has another sentinel since (setmetatable
   was called on it again) or none (its finalizer is already queued). Bounded C work. */
static int esl_sentinel_finalizer(lua_State *L) {
    if (lua_getiuservalue(L, 1, 1) != LUA_TTABLE) return 0;
    esl_push_registry_table(L, &esl_sentinels_key, "k");
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    int current = lua_rawequal(L, -1, 1);
    lua_pop(L, 1);
    if (!current) return 0;
    /* Queued first: should queueing fail (the memory cap), the entry stays and nothing is half done. */
    esl_push_registry_table(L, &esl_finalize_queue_key, NULL);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 1);
    lua_pushvalue(L, 2);
    lua_pushnil(L);
    lua_rawset(L, -3);
    return 0;
}

/* Gives the table at index 1 a sentinel (replacing any it had). */
static void esl_add_sentinel(lua_State *L) {
    esl_push_registry_table(L, &esl_sentinels_key, "k");
    lua_newuserdatauv(L, 0, 1);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &esl_sentinel_meta_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 2);
        lua_pushcfunction(L, esl_sentinel_finalizer);
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &esl_sentinel_meta_key);
    }
    lua_setmetatable(L, -2);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, 1);
    lua_insert(L, -2);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* Runs the queued finalizers, oldest first, each in its own protected call (a limit's error still ends
   the call into Lua: it is raised again at every instruction). */
static void esl_run_queued_finalizers(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &esl_finalize_queue_key) != LUA_TTABLE || lua_rawlen(L, -1) == 0) {
        lua_pop(L, 1);
        return;
    }
    /* A fresh queue for what these finalizers make garbage; this one is drained here. */
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &esl_finalize_queue_key);
    lua_Integer count = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = 1; i <= count; i++) {
        lua_rawgeti(L, -1, i);
        if (lua_getmetatable(L, -1)) {
            lua_pushliteral(L, "__gc");
            lua_rawget(L, -2);
            lua_remove(L, -2);
            if (lua_isfunction(L, -1)) {
                lua_insert(L, -2);
                if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
                if (esl_limit_exceeded(L)) {
                    /* The ones not run yet wait for the next drain; this call into Lua ends here. */
                    esl_push_registry_table(L, &esl_finalize_queue_key, NULL);
                    for (lua_Integer j = i + 1; j <= count; j++) {
                        lua_rawgeti(L, -2, j);
                        lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
                    }
                    lua_pop(L, 1);
                    esl_check_limits(L, 1);
                }
                continue;
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* setmetatable as stock Lua's, made here rather than by calling the original: called from a C
   function, an argument error would name '?' and lose the script's file and line.
   A metatable with __gc is accepted, as stock Lua accepts it (class libraries set one for every class
   that declares it); the table gets a sentinel instead of Lua's own marking (see above). Lua marks an
   object for finalization only when its metatable has __gc at this moment, so the field is taken out
   around lua_setmetatable and put back: neither rawset allocates (the key's slot stays in the table),
   and nothing runs in between. To-be-closed handlers (__close) are allowed: the coroutine functions
   below keep them within the limits. */
static int esl_setmetatable_with_sentinel(lua_State *L) {
    int metatable_type = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, metatable_type == LUA_TNIL || metatable_type == LUA_TTABLE, 2, "nil or table");
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    if (metatable_type == LUA_TTABLE) {
        /* The key is pushed once, before anything changes: pushing a string may run a step of the
           collector, which could turn the emptied slot into a dead key, and putting it back would then
           allocate (and could fail under the memory cap). lua_pushvalue runs none. */
        lua_pushliteral(L, "__gc");
        lua_pushvalue(L, 3);
        if (lua_rawget(L, 2) != LUA_TNIL) {
            /* 1 table, 2 metatable, 3 "__gc", 4 the finalizer */
            lua_pushvalue(L, 3);
            lua_pushnil(L);
            lua_rawset(L, 2);
            lua_pushvalue(L, 2);
            lua_setmetatable(L, 1);
            lua_pushvalue(L, 3);
            lua_pushvalue(L, 4);
            lua_rawset(L, 2);
            lua_settop(L, 1);
            esl_add_sentinel(L);
            esl_run_queued_finalizers(L);
            lua_settop(L, 1);
            return 1;
        }
        lua_settop(L, 2);
    }
    lua_setmetatable(L, 1);
    return 1;
}

/* collectgarbage as stock Lua's, then the finalizers a collection queued ("collect", the default, and
   "step"), as stock Lua runs them there. */
static int esl_collectgarbage_then_finalize(lua_State *L) {
    const char *option = luaL_optstring(L, 1, "collect");
    int finalizes = strcmp(option, "collect") == 0 || strcmp(option, "step") == 0;
    int nargs = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, nargs, LUA_MULTRET);
    if (finalizes) esl_run_queued_finalizers(L);
    return lua_gettop(L);
}

/* The part of the debug library the sandbox keeps when debug is not opened (--allow debug):
   traceback and getinfo (without C functions, below), which read the stack without changing
   anything, and getmetatable. Left out:
   sethook and gethook (a script would remove the limits' hook), getlocal, setlocal, getupvalue,
   setupvalue, upvaluejoin and upvalueid (they reach the values C functions and the host's Lua keep in
   their frames and upvalues, such as stock `load` inside the sandbox's), setmetatable and
   getregistry, getuservalue and setuservalue (they reach or replace the host's own objects),
   setcstacklimit and debug.debug (an interactive prompt on standard input). */
static int esl_debug_getmetatable(lua_State *L) {
    luaL_checkany(L, 1);
    /* A host object's metatable stays behind its __metatable field, as getmetatable answers: its
       __gc and __index are the host's own. Any other value's is Lua's to see. */
    if (lua_type(L, 1) == LUA_TUSERDATA && luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return 1;
    if (!lua_getmetatable(L, 1)) lua_pushnil(L);
    return 1;
}

/* With the table of the part the sandbox keeps of library `name` on top of the stack, and the whole
   library (opened, not made global) below it: makes the part the global and what `require(name)`
   answers, and pops both. */
static void esl_publish_part(lua_State *L, const char *name) {
    lua_pushvalue(L, -1);
    lua_setglobal(L, name);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, name);
    lua_pop(L, 3);
}

/* debug.getinfo without the functions that run in C: the `func` of a level where a C function runs
   would hand the script the stock functions the sandbox wraps (stock load inside a reader, stock xpcall
   and coroutine.resume, which keep no limit) and the host's functions under their trampolines. A Lua
   function's own stays. */
static int esl_debug_getinfo_without_c_functions(lua_State *L) {
    /* A level of this thread counts from the caller: this function is one more level under it. */
    int level_at = lua_type(L, 1) == LUA_TTHREAD ? 2 : 1;
    if ((level_at == 1 || lua_tothread(L, 1) == L) && lua_type(L, level_at) == LUA_TNUMBER) {
        lua_Integer level = lua_tointeger(L, level_at);
        if (level >= 0 && level < LUA_MAXINTEGER) {
            lua_pushinteger(L, level + 1);
            lua_replace(L, level_at);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    if (lua_type(L, -1) == LUA_TTABLE) {
        lua_pushliteral(L, "func");
        if (lua_rawget(L, -2) == LUA_TFUNCTION && lua_iscfunction(L, -1)) {
            lua_pop(L, 1);
            lua_pushliteral(L, "func");
            lua_pushnil(L);
            lua_rawset(L, -3);
        } else {
            lua_pop(L, 1);
        }
    }
    return 1;
}

static void esl_open_debug_subset(lua_State *L) {
    luaL_requiref(L, LUA_DBLIBNAME, luaopen_debug, 0);
    lua_createtable(L, 0, 3);
    lua_getfield(L, -2, "traceback");
    lua_setfield(L, -2, "traceback");
    lua_getfield(L, -2, "getinfo");
    lua_pushcclosure(L, esl_debug_getinfo_without_c_functions, 1);
    lua_setfield(L, -2, "getinfo");
    lua_pushcfunction(L, esl_debug_getmetatable);
    lua_setfield(L, -2, "getmetatable");
    esl_publish_part(L, LUA_DBLIBNAME);
}

/* Binary chunks made here. A binary chunk can break the VM's safety, so `load` refuses them, except the
   very bytes string.dump answered in this state: bytecode Lua's own dumper wrote for a function Lua
   compiled is what stock Lua loads back (a serializer's round trip). The registry table below holds
   them (at most ESL_DUMPS_KEPT; later dumps are not loadable). */
#define ESL_DUMPS_KEPT 4096
static const char esl_dumps_key = 0;

static int esl_recording_dump(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &esl_dumps_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &esl_dumps_key);
    }
    lua_getfield(L, -1, "n");
    lua_Integer kept = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (kept < ESL_DUMPS_KEPT) {
        lua_pushvalue(L, -2);
        if (lua_rawget(L, -2) == LUA_TNIL) {
            lua_pushvalue(L, -3);
            lua_pushboolean(L, 1);
            lua_rawset(L, -4);
            lua_pushinteger(L, kept + 1);
            lua_setfield(L, -3, "n");
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 1;
}

/* Whether the string at `index` is a chunk string.dump made in this state. */
static int esl_is_own_dump(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TSTRING) return 0;
    index = lua_absindex(L, index);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &esl_dumps_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushvalue(L, index);
    int own = lua_rawget(L, -2) == LUA_TBOOLEAN;
    lua_pop(L, 2);
    return own;
}

/* dofile over a loadfile (the upvalue): loads the file through it, raising its message, and runs it. */
static int esl_dofile_through_loadfile(lua_State *L) {
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_call(L, 1, 2);
    if (lua_isnil(L, -2)) return lua_error(L);
    lua_pop(L, 1);
    lua_callk(L, 0, LUA_MULTRET, 1, esl_finish_dofile);
    return esl_finish_dofile(L, LUA_OK, 1);
}

void esl_push_dofile_through(lua_State *L) {
    lua_pushcclosure(L, esl_dofile_through_loadfile, 1);
}

/* coroutine.create, with the hook the limits need now (esl_ensure_hook) rather than a copy of its
   creator's, which may be armed for one instruction by the watchdog (a script's own hook, copied as
   stock Lua copies it, stays). */
static int esl_create_with_hook(lua_State *L) {
    /* Checked here, where an argument error names the function and the script's line. */
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    lua_State *thread = lua_tothread(L, -1);
    if (thread != NULL) esl_ensure_hook(thread);
    return 1;
}

/* The coroutine `thread` starts running Lua code for its resumer `L` (resumed, or closed with its
   __close handlers): the watchdog's signal arms the thread running now. */
static void esl_enter_thread(lua_State *L, lua_State *thread) {
    __atomic_store_n(&esl_runtime_of(L)->running, thread, __ATOMIC_RELEASE);
}

/* Back in `L` from the coroutine `thread`: a limit the coroutine met (an interrupt, the memory cap,
   taken as an error that ended it) stops `L` at its next instruction too. */
static void esl_leave_thread(lua_State *L, lua_State *thread) {
    (void)thread;
    __atomic_store_n(&esl_runtime_of(L)->running, L, __ATOMIC_RELEASE);
    if (esl_limit_exceeded(L)) esl_arm_hook(L);
}

/* Runs the function below its `nargs` arguments (protected) as Lua code on `thread`: the watchdog arms
   the thread running Lua code now, so it must know when a coroutine runs (resumed, or closed with its
   __close handlers). A thread made while the budget was off is given the hook it needs now. Raises
   the function's error once the running thread is put back. */
static void esl_call_running(lua_State *L, lua_State *thread, int nargs, int nresults) {
    esl_check_limits(L, 1);
    esl_ensure_hook(thread);
    esl_enter_thread(L, thread);
    int status = lua_pcall(L, nargs, nresults, 0);
    esl_leave_thread(L, thread);
    if (status != LUA_OK) lua_error(L);
}

/* To-be-closed variables and limits.
   A limit stops Lua code by raising an error from the count hook, and Lua turns hooks off while a hook
   runs. A coroutine that the error leaves (no pcall inside it to catch it) keeps its hooks off for
   good, so closing it afterwards (coroutine.close, or coroutine.wrap, which closes a coroutine that
   failed) would run its pending __close handlers out of reach of every limit, even in a later call
   into Lua, once the limit's flag has been cleared. Such a coroutine is marked (a bit of its extra
   space, so that marking allocates nothing and cannot fail under an exceeded memory cap) and is never
   closed: its handlers do not run, and coroutine.close answers false and why. */
static void esl_note_if_stopped_by_limit(lua_State *L, lua_State *thread) {
    if (esl_limit_exceeded(L)) *(uintptr_t *)lua_getextraspace(thread) |= 1;
}

static int esl_was_stopped_by_limit(lua_State *thread) {
    return (*(uintptr_t *)lua_getextraspace(thread) & 1) != 0;
}

/* coroutine.resume, noting a coroutine a limit stopped. */
static int esl_resume_noting_limits(lua_State *L) {
    lua_State *thread = lua_tothread(L, 1);
    luaL_argexpected(L, thread != NULL, 1, "thread");
    /* The coroutine stays on the stack below the results: nothing else may keep it alive. */
    lua_pushvalue(L, 1);
    lua_insert(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 2);
    esl_call_running(L, thread, lua_gettop(L) - 2, LUA_MULTRET);
    if (!lua_toboolean(L, 2)) esl_note_if_stopped_by_limit(L, thread);
    return lua_gettop(L) - 1;
}

/* coroutine.close, refusing a coroutine a limit stopped: see above. The running and normal cases
   are told here, where the error names the script's line. */
static int esl_close_unless_stopped(lua_State *L) {
    lua_State *thread = lua_tothread(L, 1);
    luaL_argexpected(L, thread != NULL, 1, "thread");
    lua_Debug frame;
    if (thread == L) return luaL_error(L, "cannot close a running coroutine");
    if (lua_status(thread) == LUA_OK && lua_getstack(thread, 0, &frame))
        return luaL_error(L, "cannot close a normal coroutine");
    if (esl_was_stopped_by_limit(thread)) {
        lua_pushboolean(L, 0);
        lua_pushliteral(L, "cannot close a coroutine stopped by a limit (its to-be-closed variables are not closed)");
        return 2;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    esl_call_running(L, thread, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* The function coroutine.wrap returns: stock Lua's behaviour (results or the error, a string error
   with the caller's position; a failed coroutine closed), except that a coroutine a limit stopped is
   not closed. */
static int esl_wrapped_resume(lua_State *L) {
    lua_State *thread = lua_tothread(L, lua_upvalueindex(1));
    int nargs = lua_gettop(L);
    esl_check_limits(L, 1);
    if (!lua_checkstack(thread, nargs)) {
        lua_pushliteral(L, "too many arguments to resume");
    } else {
        lua_xmove(L, thread, nargs);
        int nresults;
        esl_ensure_hook(thread);
        esl_enter_thread(L, thread);
        int status = lua_resume(thread, L, nargs, &nresults);
        esl_leave_thread(L, thread);
        if (status == LUA_OK || status == LUA_YIELD) {
            if (lua_checkstack(L, nresults + 1)) {
                lua_xmove(thread, L, nresults);
                return nresults;
            }
            lua_pop(thread, nresults);
            lua_pushliteral(L, "too many results to resume");
        } else {
            lua_xmove(thread, L, 1); /* the error */
        }
    }
    int status = lua_status(thread);
    if (status != LUA_OK && status != LUA_YIELD) {
        if (esl_limit_exceeded(L) || esl_was_stopped_by_limit(thread)) {
            /* Not closed (see above); a limit's message already names its position. */
            esl_note_if_stopped_by_limit(L, thread);
            return lua_error(L);
        }
        esl_enter_thread(L, thread);
        status = lua_resetthread(thread); /* closes its to-be-closed variables */
        esl_leave_thread(L, thread);
        lua_xmove(thread, L, 1);
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/* coroutine.wrap: a coroutine with its hook as coroutine.create gives it, resumed by the function
   above. */
static int esl_wrap_with_hook(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *thread = lua_newthread(L);
    esl_ensure_hook(thread);
    lua_pushvalue(L, 1);
    lua_xmove(L, thread, 1);
    lua_pushcclosure(L, esl_wrapped_resume, 1);
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

/* Stock Lua's `package` and `require` (package.loaded, package.preload, the preload searcher, two
   results), without what reaches native code or probes the file system: no loadlib, no cpath, no C
   searchers, and searchpath (which tells whether any file anywhere is readable) is replaced. The host
   appends its own searchers for host modules and for Lua files under the script roots, puts in its own
   searchpath that looks only there (ModuleLoader.swift), and sets package.path: the one
   luaopen_package makes comes from the environment (LUA_PATH). */
static void esl_open_package_without_native_code(lua_State *L) {
    static const char *const removed[] = {"loadlib", "cpath", "searchpath", NULL};
    /* The built-in default path, never the environment's LUA_PATH: scripts do not read the environment. */
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
    esl_require_library(L, LUA_LOADLIBNAME, luaopen_package);
    lua_getglobal(L, LUA_LOADLIBNAME);
    for (int i = 0; removed[i] != NULL; i++) {
        lua_pushnil(L);
        lua_setfield(L, -2, removed[i]);
    }
    /* The templates stock Lua starts with (its built-in default: /usr/share/lua/5.4/?.lua and the like):
       the host puts them after its roots' own, where only those inside the roots are ever looked at. */
    lua_getfield(L, -1, "path");
    lua_setfield(L, LUA_REGISTRYINDEX, ESL_SYSTEM_PATH_KEY);
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "path");
    lua_getfield(L, -1, "searchers");
    for (lua_Integer i = (lua_Integer)lua_rawlen(L, -1); i > 1; i--) {
        lua_pushnil(L);
        lua_rawseti(L, -2, i);
    }
    lua_pop(L, 2);
}

static int esl_open_sandbox_protected(lua_State *L) {
    unsigned int allowed = (unsigned int)lua_tointeger(L, 1);
    esl_require_library(L, LUA_GNAME, luaopen_base);
    esl_require_library(L, LUA_TABLIBNAME, luaopen_table);
    esl_require_library(L, LUA_STRLIBNAME, luaopen_string);
    esl_budget_pattern_functions(L);
    esl_bound_long_calls(L);
    esl_require_library(L, LUA_MATHLIBNAME, luaopen_math);
    esl_require_library(L, LUA_UTF8LIBNAME, luaopen_utf8);
    esl_require_library(L, LUA_COLIBNAME, luaopen_coroutine);
    esl_open_package_without_native_code(L);
    if (allowed & ESL_LIB_IO) esl_require_library(L, LUA_IOLIBNAME, luaopen_io);
    if (allowed & ESL_LIB_DEBUG) esl_require_library(L, LUA_DBLIBNAME, luaopen_debug); else esl_open_debug_subset(L);

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
        esl_publish_part(L, LUA_OSLIBNAME);
    }

    /* Base library: with io opened, dofile and loadfile of any file, text chunks only; without it,
       the host puts in a loadfile that reads only under the script roots (ModuleLoader.swift) and a
       dofile over it (esl_push_dofile_through). */
    if (allowed & ESL_LIB_IO) lua_pushcfunction(L, esl_text_only_dofile); else lua_pushnil(L);
    lua_setglobal(L, "dofile");
    if (allowed & ESL_LIB_IO) lua_pushcfunction(L, esl_text_only_loadfile); else lua_pushnil(L);
    lua_setglobal(L, "loadfile");
    esl_wrap_global(L, "load", esl_text_only_load);
    esl_wrap_global(L, "xpcall", esl_guarded_xpcall);
    lua_pushcfunction(L, esl_setmetatable_with_sentinel);
    lua_setglobal(L, "setmetatable");
    esl_wrap_global(L, "collectgarbage", esl_collectgarbage_then_finalize);
    esl_wrap_field(L, LUA_STRLIBNAME, "dump", esl_recording_dump);
    esl_wrap_field(L, LUA_COLIBNAME, "create", esl_create_with_hook);
    esl_wrap_field(L, LUA_COLIBNAME, "resume", esl_resume_noting_limits);
    esl_wrap_field(L, LUA_COLIBNAME, "close", esl_close_unless_stopped);
    lua_getglobal(L, LUA_COLIBNAME);
    lua_pushcfunction(L, esl_wrap_with_hook);
    lua_setfield(L, -2, "wrap");
    lua_pop(L, 1);

    return 0;
}

int esl_open_sandbox(lua_State *L, unsigned int allowed) {
    lua_pushcclosure(L, esl_open_sandbox_protected, 0);
    lua_pushinteger(L, (lua_Integer)allowed);
    return lua_pcall(L, 1, 0, 0);
}
