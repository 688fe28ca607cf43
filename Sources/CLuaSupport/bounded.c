/*
 * Long C calls within the limits: string.rep and the table functions whose loops run in C.
 *
 * The count hook sees VM instructions only. Stock string.rep, table.move, table.insert, table.remove,
 * table.concat and table.sort loop in C for as long as their arguments (or a __len metamethod) say,
 * without running an instruction and, with nil or empty values, without allocating: string.rep("",
 * math.maxinteger) or table.move({}, 1, math.maxinteger - 1, 2) would outrun the instruction budget, the
 * time limit and an interrupt. The sandbox's versions give stock Lua 5.4's results, errors and order of
 * element accesses, and charge every step to the instruction budget (esl_spend), which checks the other
 * limits as well: as many steps per element moved, compared or joined as the same loop in Lua would run, one per 16
 * bytes written.
 */
#include "CLuaSupport.h"
#include <limits.h>
#include <string.h>

/* Steps gathered before one charge to the budget (a charge may read the clock). */
#define ESL_STEPS_PER_CHARGE 256
/* Bytes written that cost one step (as the pattern functions charge a scan). */
#define ESL_BYTES_PER_STEP 16
/* Steps one element moved, compared or joined costs: what the same loop written in Lua would run
   (`t[i] = t[i - 1]` in a numeric for: index arithmetic, a read, a write, the loop). */
#define ESL_STEPS_PER_ELEMENT 4
/* At most this many bytes string.rep copies between two charges. */
#define ESL_REP_CHUNK ((size_t)1 << 20)
/* Plain tables up to this length are sorted by stock sort directly (a charged comparison per call costs
   more than the comparison), and the sort is charged as a whole afterwards: a bounded pause. */
#define ESL_DIRECT_SORT_LENGTH 65536
/* The longest string string.rep makes, as in stock Lua's string library. */
#define ESL_MAX_STRING (sizeof(size_t) < sizeof(int) ? (size_t)-1 : (size_t)INT_MAX)

/* What a table argument must allow: stock Lua accepts any value whose metatable has the metamethods. */
enum { ESL_READS = 1, ESL_WRITES = 2, ESL_LENGTH = 4 };

/* Steps not yet charged, and the stack level whose position a limit's error names. */
typedef struct {
    lua_State *L;
    int level;
    long long uncharged;
} esl_meter;

static void esl_meter_init(esl_meter *meter, lua_State *L, int level) {
    meter->L = L;
    meter->level = level;
    meter->uncharged = 0;
}

static inline void esl_meter_add(esl_meter *meter, long long steps) {
    meter->uncharged += steps;
    if (meter->uncharged >= ESL_STEPS_PER_CHARGE) {
        long long steps_now = meter->uncharged;
        meter->uncharged = 0;
        esl_spend(meter->L, steps_now, meter->level);
    }
}

/* Charges the rest once the work is done; a call that looped not at all costs nothing here. */
static void esl_meter_settle(esl_meter *meter) {
    if (meter->uncharged > 0) {
        long long steps_now = meter->uncharged;
        meter->uncharged = 0;
        esl_spend(meter->L, steps_now, meter->level);
    }
}

static int esl_has_metafield(lua_State *L, int metatable, const char *name) {
    lua_pushstring(L, name);
    int found = lua_rawget(L, metatable) != LUA_TNIL;
    lua_pop(L, 1);
    return found;
}

/* Raises stock Lua's "table expected" unless argument `arg` is a table or has the metamethods `needs`
   asks for. Reads the metatable raw: nothing the script wrote runs. */
static void esl_check_table_like(lua_State *L, int arg, int needs) {
    if (lua_type(L, arg) == LUA_TTABLE) return;
    int allowed = 0;
    if (lua_getmetatable(L, arg)) {
        int metatable = lua_gettop(L);
        allowed = (!(needs & ESL_READS) || esl_has_metafield(L, metatable, "__index")) &&
                  (!(needs & ESL_WRITES) || esl_has_metafield(L, metatable, "__newindex")) &&
                  (!(needs & ESL_LENGTH) || esl_has_metafield(L, metatable, "__len"));
        lua_pop(L, 1);
    }
    if (!allowed) luaL_checktype(L, arg, LUA_TTABLE);
}

static lua_Integer esl_checked_length(lua_State *L, int arg, int needs) {
    esl_check_table_like(L, arg, needs | ESL_LENGTH);
    return luaL_len(L, arg);
}

/* string.rep(s, n [, sep]) */
static int esl_bounded_rep(lua_State *L) {
    size_t length, separator_length;
    const char *text = luaL_checklstring(L, 1, &length);
    lua_Integer count = luaL_checkinteger(L, 2);
    const char *separator = luaL_optlstring(L, 3, "", &separator_length);
    size_t unit = length + separator_length;
    /* An empty piece repeated any number of times is empty: no loop at all. */
    if (count <= 0 || unit == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (unit < length || unit > ESL_MAX_STRING / (size_t)count) return luaL_error(L, "resulting string too large");
    size_t total = (size_t)count * unit - separator_length;
    luaL_Buffer buffer;
    char *out = luaL_buffinitsize(L, &buffer, total);
    memcpy(out, text, length);
    if (count > 1) memcpy(out + length, separator, separator_length);
    /* The rest copies what is written so far, whole pieces at a time (so the copy keeps the pattern),
       at most about a mebibyte between two charges. */
    size_t written = unit < total ? unit : total;
    size_t most = unit >= ESL_REP_CHUNK ? unit : ESL_REP_CHUNK / unit * unit;
    esl_meter meter;
    esl_meter_init(&meter, L, 1);
    while (written < total) {
        size_t chunk = written < most ? written : most;
        if (chunk > total - written) chunk = total - written;
        memcpy(out + written, out, chunk);
        written += chunk;
        esl_meter_add(&meter, (long long)(chunk / ESL_BYTES_PER_STEP));
    }
    esl_meter_settle(&meter);
    luaL_pushresultsize(&buffer, total);
    return 1;
}

/* table.move(a1, f, e, t [, a2]) */
static int esl_bounded_move(lua_State *L) {
    lua_Integer first = luaL_checkinteger(L, 2);
    lua_Integer last = luaL_checkinteger(L, 3);
    lua_Integer target = luaL_checkinteger(L, 4);
    int destination = lua_isnoneornil(L, 5) ? 1 : 5;
    esl_check_table_like(L, 1, ESL_READS);
    esl_check_table_like(L, destination, ESL_WRITES);
    if (last >= first) {
        luaL_argcheck(L, first > 0 || last < LUA_MAXINTEGER + first, 3, "too many elements to move");
        lua_Integer count = last - first + 1;
        luaL_argcheck(L, target <= LUA_MAXINTEGER - count + 1, 4, "destination wrap around");
        /* Backwards when the ranges overlap in one table with the target after the start, so no
           element is overwritten before it is read. */
        int backwards = target > first && target <= last &&
                        (destination == 1 || lua_compare(L, 1, destination, LUA_OPEQ));
        esl_meter meter;
        esl_meter_init(&meter, L, 1);
        for (lua_Integer i = 0; i < count; i++) {
            lua_Integer offset = backwards ? count - 1 - i : i;
            lua_geti(L, 1, first + offset);
            lua_seti(L, destination, target + offset);
            esl_meter_add(&meter, ESL_STEPS_PER_ELEMENT);
        }
        esl_meter_settle(&meter);
    }
    lua_pushvalue(L, destination);
    return 1;
}

/* table.insert(t, [pos,] value) */
static int esl_bounded_insert(lua_State *L) {
    lua_Integer end = luaL_intop(+, esl_checked_length(L, 1, ESL_READS | ESL_WRITES), 1);
    lua_Integer position = end;
    switch (lua_gettop(L)) {
    case 2:
        break;
    case 3: {
        position = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)position - 1u < (lua_Unsigned)end, 2, "position out of bounds");
        esl_meter meter;
        esl_meter_init(&meter, L, 1);
        for (lua_Integer i = end; i > position; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
            esl_meter_add(&meter, ESL_STEPS_PER_ELEMENT);
        }
        esl_meter_settle(&meter);
        break;
    }
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, position);
    return 0;
}

/* table.remove(t [, pos]) */
static int esl_bounded_remove(lua_State *L) {
    lua_Integer size = esl_checked_length(L, 1, ESL_READS | ESL_WRITES);
    lua_Integer position = luaL_optinteger(L, 2, size);
    if (position != size)
        /* Lua 5.4.4 names the first argument here. */
        luaL_argcheck(L, (lua_Unsigned)position - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
    lua_geti(L, 1, position);
    esl_meter meter;
    esl_meter_init(&meter, L, 1);
    for (; position < size; position++) {
        lua_geti(L, 1, position + 1);
        lua_seti(L, 1, position);
        esl_meter_add(&meter, ESL_STEPS_PER_ELEMENT);
    }
    esl_meter_settle(&meter);
    lua_pushnil(L);
    lua_seti(L, 1, position);
    return 1;
}

static void esl_add_element(lua_State *L, luaL_Buffer *buffer, lua_Integer index, esl_meter *meter) {
    lua_geti(L, 1, index);
    if (!lua_isstring(L, -1))
        luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1), (LUAI_UACINT)index);
    size_t length;
    lua_tolstring(L, -1, &length);
    luaL_addvalue(buffer);
    esl_meter_add(meter, ESL_STEPS_PER_ELEMENT + (long long)(length / ESL_BYTES_PER_STEP));
}

/* table.concat(list [, sep [, i [, j]]]) */
static int esl_bounded_concat(lua_State *L) {
    lua_Integer last = esl_checked_length(L, 1, ESL_READS);
    size_t separator_length;
    const char *separator = luaL_optlstring(L, 2, "", &separator_length);
    lua_Integer index = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    esl_meter meter;
    esl_meter_init(&meter, L, 1);
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    for (; index < last; index++) {
        esl_add_element(L, &buffer, index, &meter);
        luaL_addlstring(&buffer, separator, separator_length);
        esl_meter_add(&meter, (long long)(separator_length / ESL_BYTES_PER_STEP));
    }
    if (index == last) esl_add_element(L, &buffer, index, &meter);
    esl_meter_settle(&meter);
    luaL_pushresult(&buffer);
    return 1;
}

/* The order stock sort uses when the script gave a C function or none, charging one step per
   comparison (a Lua comparator needs no help: its own instructions are counted). Upvalues: the
   script's comparator or nil, and a userdata holding the steps not yet charged. Its limit errors name
   the line that called table.sort: level 0 is this function, 1 stock sort, 2 the sandbox's, 3 the script. */
static int esl_charged_order(lua_State *L) {
    long long *uncharged = (long long *)lua_touserdata(L, lua_upvalueindex(2));
    *uncharged += ESL_STEPS_PER_ELEMENT;
    if (*uncharged >= ESL_STEPS_PER_CHARGE) {
        long long steps_now = *uncharged;
        *uncharged = 0;
        esl_spend(L, steps_now, 3);
    }
    if (lua_isnil(L, lua_upvalueindex(1))) {
        lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* Whether argument `arg` has a __len metamethod, read raw. */
static int esl_has_length_metamethod(lua_State *L, int arg) {
    if (!lua_getmetatable(L, arg)) return 0;
    int found = esl_has_metafield(L, lua_gettop(L), "__len");
    lua_pop(L, 1);
    return found;
}

/* table.sort(list [, comp]): stock sort (upvalue 1) with its comparisons charged. Stock sort's own
   argument errors would name neither 'sort' nor the script's line once it is called from here, so they
   are raised here first, reading the length only where reading it is free of side effects (no __len);
   with a __len metamethod, stock sort reads the length once itself, as it always does. */
static int esl_bounded_sort(lua_State *L) {
    esl_check_table_like(L, 1, ESL_READS | ESL_WRITES | ESL_LENGTH);
    int plain_length = !esl_has_length_metamethod(L, 1);
    int comparator_type = lua_type(L, 2);
    int bad_comparator = comparator_type != LUA_TNONE && comparator_type != LUA_TNIL && comparator_type != LUA_TFUNCTION;
    lua_Integer length = -1; /* unknown: stock sort reads it */
    if (plain_length || bad_comparator) {
        length = luaL_len(L, 1);
        if (length <= 1) return 0;
        luaL_argcheck(L, length < INT_MAX, 1, "array too big");
        if (bad_comparator) luaL_checktype(L, 2, LUA_TFUNCTION);
    }
    lua_settop(L, 2);
    int lua_comparator = comparator_type == LUA_TFUNCTION && !lua_iscfunction(L, 2);
    int no_comparator = comparator_type == LUA_TNONE || comparator_type == LUA_TNIL;
    /* A C comparator (string.upper on a long string, say) can cost far more than a step per call: it
       is always charged call by call, however short the table. */
    int direct = lua_comparator || (no_comparator && length >= 0 && length <= ESL_DIRECT_SORT_LENGTH);
    if (!direct) {
        lua_pushvalue(L, 2);
        *(long long *)lua_newuserdatauv(L, sizeof(long long), 0) = 0;
        lua_pushcclosure(L, esl_charged_order, 2);
        lua_replace(L, 2);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 0);
    long long uncharged = 0;
    if (!direct) {
        lua_getupvalue(L, 2, 2);
        uncharged = *(long long *)lua_touserdata(L, -1);
        lua_pop(L, 1);
    } else if (!lua_comparator) {
        /* About n log2 n comparisons. */
        long long rounds = 1;
        while (((lua_Integer)1 << rounds) < length) rounds++;
        uncharged = (long long)length * rounds * ESL_STEPS_PER_ELEMENT;
    }
    if (uncharged > 0) esl_spend(L, uncharged, 1);
    return 0;
}

static void esl_replace_field(lua_State *L, const char *library, const char *name, lua_CFunction function,
                              int keeps_original) {
    lua_getglobal(L, library);
    if (keeps_original) {
        lua_getfield(L, -1, name);
        lua_pushcclosure(L, function, 1);
    } else {
        lua_pushcfunction(L, function);
    }
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

void esl_bound_long_calls(lua_State *L) {
    esl_replace_field(L, LUA_STRLIBNAME, "rep", esl_bounded_rep, 0);
    esl_replace_field(L, LUA_TABLIBNAME, "move", esl_bounded_move, 0);
    esl_replace_field(L, LUA_TABLIBNAME, "insert", esl_bounded_insert, 0);
    esl_replace_field(L, LUA_TABLIBNAME, "remove", esl_bounded_remove, 0);
    esl_replace_field(L, LUA_TABLIBNAME, "concat", esl_bounded_concat, 0);
    esl_replace_field(L, LUA_TABLIBNAME, "sort", esl_bounded_sort, 1);
}
