/* Plain-C baselines for the bridge benchmarks: the same work done straight on the Lua C API. */
#ifndef LUA_BENCH_BASELINE_H
#define LUA_BENCH_BASELINE_H

/* Runs `loop` (a chunk that reads the global `add` and takes the call count as its argument) in a
   plain state where `add` is a C function registered with lua_pushcfunction. Returns the elapsed
   nanoseconds, and the chunk's integer result in *result (so the work cannot be optimised away);
   a negative value means the chunk failed. */
double lbb_lua_calls_c_add(const char *loop, long long calls, long long *result);

/* Calls the Lua function returned by `chunk` `calls` times from C, through a registry ref
   (lua_rawgeti + lua_pcall), with two integer arguments (running sum, 1) and one result.
   Returns the elapsed nanoseconds and the final sum in *result; negative on failure. */
double lbb_c_calls_lua_function(const char *chunk, long long calls, long long *result);

/* Runs `chunk` in a plain state with Lua's stock libraries (its pattern functions included) and
   returns the elapsed nanoseconds, and the chunk's integer result in *result; negative on failure. */
double lbb_run_stock_chunk(const char *chunk, long long *result);

#endif
