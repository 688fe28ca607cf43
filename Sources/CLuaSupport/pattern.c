/*
 * The sandbox's pattern functions: string.find, string.match, string.gmatch and string.gsub.
 *
 * They give the results the Lua 5.4 manual (section 6.4.1) describes for stock Lua, and differ in one
 * way: the matcher is a backtracking search whose cost can grow as a power of the subject's length, and
 * stock Lua runs it in C, out of reach of the count hook. Here every step of the search is charged to the
 * instruction budget and checked against the deadline (esl_spend), so a pathological pattern stops like
 * a runaway loop, with the same error.
 */
#define _GNU_SOURCE /* memmem */
#include "CLuaSupport.h"
#include <ctype.h>
#include <string.h>

#define ESL_MAX_CAPTURES 32
/* Nested matcher calls before a pattern is "too complex" (stock Lua's limit as well). */
#define ESL_MAX_MATCH_DEPTH 200
/* Matcher steps between two charges to the budget. */
#define ESL_STEPS_PER_CHARGE 256
#define ESL_ESCAPE '%'

/* The length of a capture still open, and of a position capture `()`. */
#define ESL_CAPTURE_OPEN (-1)
#define ESL_CAPTURE_POSITION (-2)

typedef struct {
    const char *start;
    ptrdiff_t length; /* bytes, or ESL_CAPTURE_OPEN / ESL_CAPTURE_POSITION */
} esl_capture;

typedef struct {
    lua_State *L;
    const char *subject;
    const char *subject_end;
    const char *pattern_end;
    int depth_left;
    int capture_count;
    int credit; /* steps left before the next charge */
    esl_capture captures[ESL_MAX_CAPTURES];
} esl_matcher;

static const char *esl_match(esl_matcher *m, const char *s, const char *p);

static void esl_matcher_init(esl_matcher *m, lua_State *L, const char *subject, size_t length,
                             const char *pattern, size_t pattern_length) {
    m->L = L;
    m->subject = subject;
    m->subject_end = subject + length;
    m->pattern_end = pattern + pattern_length;
    m->credit = ESL_STEPS_PER_CHARGE;
}

/* Forgets the captures of a failed attempt before the next one. */
static void esl_matcher_restart(esl_matcher *m) {
    m->depth_left = ESL_MAX_MATCH_DEPTH;
    m->capture_count = 0;
}

static inline void esl_step(esl_matcher *m) {
    if (--m->credit <= 0) {
        esl_spend(m->L, ESL_STEPS_PER_CHARGE - m->credit, 1);
        m->credit = ESL_STEPS_PER_CHARGE;
    }
}

/* Charges work proportional to `bytes` scanned at once (a set, a back reference), so a long set or
   capture cannot make one step cost arbitrarily much. */
static inline void esl_step_over(esl_matcher *m, ptrdiff_t bytes) {
    m->credit -= (int)(bytes / 16 > 1 << 20 ? 1 << 20 : bytes / 16);
    esl_step(m);
}

/* Charges what the last charge left out, once a function is done with the matcher. */
static void esl_settle(esl_matcher *m) {
    esl_spend(m->L, ESL_STEPS_PER_CHARGE - m->credit, 1);
    m->credit = ESL_STEPS_PER_CHARGE;
}

/* Whether byte `c` is in the class named by `letter` (%a, %d, ...; upper case for the complement);
   any other letter stands for itself. */
static int esl_in_class(int c, int letter) {
    int in;
    switch (tolower(letter)) {
        case 'a': in = isalpha(c); break;
        case 'c': in = iscntrl(c); break;
        case 'd': in = isdigit(c); break;
        case 'g': in = isgraph(c); break;
        case 'l': in = islower(c); break;
        case 'p': in = ispunct(c); break;
        case 's': in = isspace(c); break;
        case 'u': in = isupper(c); break;
        case 'w': in = isalnum(c); break;
        case 'x': in = isxdigit(c); break;
        case 'z': in = (c == 0); break; /* deprecated by the manual, still accepted by Lua 5.4 */
        default: return letter == c;
    }
    if (isupper(letter)) return !in;
    return in != 0;
}

/* Whether byte `c` is in the set `[...]` that opens at `open` and closes at `close` (its ']'). */
static int esl_in_set(int c, const char *open, const char *close) {
    const char *p = open + 1;
    int found = 1;
    if (*p == '^') {
        found = 0;
        p++;
    }
    for (; p < close; p++) {
        if (*p == ESL_ESCAPE) {
            p++;
            if (esl_in_class(c, (unsigned char)*p)) return found;
        } else if (p[1] == '-' && p + 2 < close) {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return found;
            p += 2;
        } else if ((unsigned char)*p == c) {
            return found;
        }
    }
    return !found;
}

/* The end of the single-character item that starts at `p` (a byte, '.', %x or a set). */
static const char *esl_item_end(esl_matcher *m, const char *p) {
    const char *start = p;
    char first = *p++;
    if (first == ESL_ESCAPE) {
        if (p >= m->pattern_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (first == '[') {
        if (p < m->pattern_end && *p == '^') p++;
        /* The first byte of a set is in it even when it is ']'. */
        do {
            if (p >= m->pattern_end) luaL_error(m->L, "malformed pattern (missing ']')");
            char c = *p++;
            if (c == ESL_ESCAPE && p < m->pattern_end) p++;
        } while (p >= m->pattern_end || *p != ']');
        esl_step_over(m, p - start);
        return p + 1;
    }
    return p;
}

/* Whether the subject byte at `s` matches the item from `p` to `item_end`. */
static int esl_item_matches(esl_matcher *m, const char *s, const char *p, const char *item_end) {
    esl_step(m);
    if (s >= m->subject_end) return 0;
    int c = (unsigned char)*s;
    switch (*p) {
        case '.': return 1;
        case ESL_ESCAPE: return esl_in_class(c, (unsigned char)p[1]);
        case '[':
            esl_step_over(m, item_end - p);
            return esl_in_set(c, p, item_end - 1);
        default: return (unsigned char)*p == c;
    }
}

/* %bxy: a balanced run from x to its matching y. */
static const char *esl_match_balance(esl_matcher *m, const char *s, const char *p) {
    if (p + 1 >= m->pattern_end) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= m->subject_end || *s != p[0]) return NULL;
    char open = p[0], close = p[1];
    int nesting = 1;
    while (++s < m->subject_end) {
        esl_step(m);
        if (*s == close) {
            if (--nesting == 0) return s + 1;
        } else if (*s == open) {
            nesting++;
        }
    }
    return NULL;
}

/* As many repetitions of the item as possible, giving back one at a time until the rest matches. */
static const char *esl_match_greedy(esl_matcher *m, const char *s, const char *p, const char *item_end) {
    ptrdiff_t count = 0;
    while (esl_item_matches(m, s + count, p, item_end)) count++;
    for (; count >= 0; count--) {
        const char *end = esl_match(m, s + count, item_end + 1);
        if (end != NULL) return end;
    }
    return NULL;
}

/* As few repetitions of the item as possible, taking one more at a time until the rest matches. */
static const char *esl_match_lazy(esl_matcher *m, const char *s, const char *p, const char *item_end) {
    for (;;) {
        const char *end = esl_match(m, s, item_end + 1);
        if (end != NULL) return end;
        if (!esl_item_matches(m, s, p, item_end)) return NULL;
        s++;
    }
}

static const char *esl_open_capture(esl_matcher *m, const char *s, const char *p, ptrdiff_t kind) {
    if (m->capture_count >= ESL_MAX_CAPTURES) luaL_error(m->L, "too many captures");
    m->captures[m->capture_count].start = s;
    m->captures[m->capture_count].length = kind;
    m->capture_count++;
    const char *end = esl_match(m, s, p);
    if (end == NULL) m->capture_count--;
    return end;
}

static const char *esl_close_capture(esl_matcher *m, const char *s, const char *p) {
    int index = m->capture_count - 1;
    while (index >= 0 && m->captures[index].length != ESL_CAPTURE_OPEN) index--;
    if (index < 0) luaL_error(m->L, "invalid pattern capture");
    m->captures[index].length = s - m->captures[index].start;
    const char *end = esl_match(m, s, p);
    if (end == NULL) m->captures[index].length = ESL_CAPTURE_OPEN;
    return end;
}

/* %1 to %9: the text of a closed capture again. */
static const char *esl_match_back_reference(esl_matcher *m, const char *s, int digit) {
    int index = digit - '1';
    if (index < 0 || index >= m->capture_count || m->captures[index].length == ESL_CAPTURE_OPEN)
        luaL_error(m->L, "invalid capture index %%%d", index + 1);
    ptrdiff_t length = m->captures[index].length;
    if (length < 0) return NULL; /* a position capture holds no text */
    esl_step_over(m, length);
    if (m->subject_end - s >= length && memcmp(m->captures[index].start, s, (size_t)length) == 0) {
        return s + length;
    }
    return NULL;
}

/* Matches the pattern from `p` at subject position `s`: the end of the match, or NULL. */
static const char *esl_match(esl_matcher *m, const char *s, const char *p) {
    if (m->depth_left-- == 0) luaL_error(m->L, "pattern too complex");
    for (;;) {
        esl_step(m);
        if (p == m->pattern_end) break;
        if (*p == '(') {
            s = p + 1 < m->pattern_end && p[1] == ')' ? esl_open_capture(m, s, p + 2, ESL_CAPTURE_POSITION)
                                                      : esl_open_capture(m, s, p + 1, ESL_CAPTURE_OPEN);
            break;
        }
        if (*p == ')') {
            s = esl_close_capture(m, s, p + 1);
            break;
        }
        if (*p == '$' && p + 1 == m->pattern_end) {
            if (s != m->subject_end) s = NULL;
            break;
        }
        if (*p == ESL_ESCAPE && p + 1 < m->pattern_end) {
            char kind = p[1];
            if (kind == 'b') {
                s = esl_match_balance(m, s, p + 2);
                if (s == NULL) break;
                p += 4;
                continue;
            }
            if (kind == 'f') {
                p += 2;
                if (p >= m->pattern_end || *p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
                const char *set_end = esl_item_end(m, p);
                esl_step_over(m, 2 * (set_end - p));
                int before = s == m->subject ? '\0' : (unsigned char)s[-1];
                int here = s < m->subject_end ? (unsigned char)*s : '\0';
                if (!esl_in_set(before, p, set_end - 1) && esl_in_set(here, p, set_end - 1)) {
                    p = set_end;
                    continue;
                }
                s = NULL;
                break;
            }
            if (isdigit((unsigned char)kind)) {
                s = esl_match_back_reference(m, s, (unsigned char)kind);
                if (s == NULL) break;
                p += 2;
                continue;
            }
        }
        /* A single-character item, maybe followed by a repetition. */
        const char *item_end = esl_item_end(m, p);
        char repetition = item_end < m->pattern_end ? *item_end : '\0';
        if (!esl_item_matches(m, s, p, item_end)) {
            if (repetition == '*' || repetition == '?' || repetition == '-') {
                p = item_end + 1; /* zero repetitions are fine */
                continue;
            }
            s = NULL;
            break;
        }
        if (repetition == '?') {
            const char *end = esl_match(m, s + 1, item_end + 1);
            if (end != NULL) {
                s = end;
                break;
            }
            p = item_end + 1;
            continue;
        }
        if (repetition == '+') {
            s = esl_match_greedy(m, s + 1, p, item_end);
            break;
        }
        if (repetition == '*') {
            s = esl_match_greedy(m, s, p, item_end);
            break;
        }
        if (repetition == '-') {
            s = esl_match_lazy(m, s, p, item_end);
            break;
        }
        s++;
        p = item_end;
    }
    m->depth_left++;
    return s;
}

/* Pushes capture `index`; with no captures at all, index 0 is the whole match from `s` to `e`. */
static void esl_push_capture(esl_matcher *m, int index, const char *s, const char *e) {
    if (index >= m->capture_count) {
        if (index != 0) luaL_error(m->L, "invalid capture index %%%d", index + 1);
        lua_pushlstring(m->L, s, (size_t)(e - s));
        return;
    }
    esl_capture *capture = &m->captures[index];
    if (capture->length == ESL_CAPTURE_OPEN) luaL_error(m->L, "unfinished capture");
    if (capture->length == ESL_CAPTURE_POSITION)
        lua_pushinteger(m->L, (lua_Integer)(capture->start - m->subject) + 1);
    else
        lua_pushlstring(m->L, capture->start, (size_t)capture->length);
}

/* Pushes every capture, or the whole match when there are none and `s` is given; returns the count. */
static int esl_push_captures(esl_matcher *m, const char *s, const char *e) {
    int count = (m->capture_count == 0 && s != NULL) ? 1 : m->capture_count;
    luaL_checkstack(m->L, count, "too many captures");
    for (int i = 0; i < count; i++) esl_push_capture(m, i, s, e);
    return count;
}

/* A 1-based start position from a possibly negative `init`, clipped to the string as the manual says. */
static size_t esl_start_position(lua_Integer init, size_t length) {
    if (init > 0) return (size_t)init;
    if (init == 0 || init < -(lua_Integer)length) return 1;
    return length + (size_t)init + 1;
}

/* Whether a pattern holds none of the magic characters, so find may search for it as plain text. */
static int esl_is_plain(const char *pattern, size_t length) {
    for (size_t i = 0; i < length; i++) {
        if (pattern[i] != '\0' && strchr("^$*+?.([%-", pattern[i]) != NULL) return 0;
    }
    return 1;
}

/* Removes a leading '^' from the pattern; whether there was one (the match is then tried at the
   start position only). */
static int esl_strip_anchor(const char **pattern, size_t *length) {
    if (*length == 0 || **pattern != '^') return 0;
    (*pattern)++;
    (*length)--;
    return 1;
}

static int esl_find_or_match(lua_State *L, int find) {
    size_t length, pattern_length;
    const char *subject = luaL_checklstring(L, 1, &length);
    const char *pattern = luaL_checklstring(L, 2, &pattern_length);
    size_t start = esl_start_position(luaL_optinteger(L, 3, 1), length) - 1;
    if (start > length) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || esl_is_plain(pattern, pattern_length))) {
        /* memmem runs in linear time: no budget to spend. */
        const char *found = memmem(subject + start, length - start, pattern, pattern_length);
        if (found != NULL) {
            lua_pushinteger(L, (lua_Integer)(found - subject) + 1);
            lua_pushinteger(L, (lua_Integer)(found - subject + pattern_length));
            return 2;
        }
        luaL_pushfail(L);
        return 1;
    }
    int anchored = esl_strip_anchor(&pattern, &pattern_length);
    esl_matcher m;
    esl_matcher_init(&m, L, subject, length, pattern, pattern_length);
    const char *s = subject + start;
    do {
        esl_matcher_restart(&m);
        const char *end = esl_match(&m, s, pattern);
        if (end != NULL) {
            esl_settle(&m);
            if (!find) return esl_push_captures(&m, s, end);
            lua_pushinteger(L, (lua_Integer)(s - subject) + 1);
            lua_pushinteger(L, (lua_Integer)(end - subject));
            return esl_push_captures(&m, NULL, NULL) + 2;
        }
    } while (s++ < m.subject_end && !anchored);
    esl_settle(&m);
    luaL_pushfail(L);
    return 1;
}

static int esl_find(lua_State *L) { return esl_find_or_match(L, 1); }
static int esl_string_match(lua_State *L) { return esl_find_or_match(L, 0); }

/* One step of a gmatch iterator. Upvalues: the subject, the pattern, where to look next, and where the
   last match ended (-1 before the first), so an empty match right after a match is skipped. */
static int esl_gmatch_next(lua_State *L) {
    size_t length, pattern_length;
    const char *subject = lua_tolstring(L, lua_upvalueindex(1), &length);
    const char *pattern = lua_tolstring(L, lua_upvalueindex(2), &pattern_length);
    lua_Integer next = lua_tointeger(L, lua_upvalueindex(3));
    lua_Integer last_end = lua_tointeger(L, lua_upvalueindex(4));
    esl_matcher m;
    esl_matcher_init(&m, L, subject, length, pattern, pattern_length);
    for (lua_Integer at = next; at <= (lua_Integer)length; at++) {
        esl_matcher_restart(&m);
        const char *end = esl_match(&m, subject + at, pattern);
        if (end != NULL && end - subject != last_end) {
            esl_settle(&m);
            lua_pushinteger(L, (lua_Integer)(end - subject));
            lua_pushvalue(L, -1);
            lua_replace(L, lua_upvalueindex(3));
            lua_replace(L, lua_upvalueindex(4));
            return esl_push_captures(&m, subject + at, end);
        }
    }
    esl_settle(&m);
    return 0;
}

static int esl_gmatch(lua_State *L) {
    size_t length;
    luaL_checklstring(L, 1, &length);
    luaL_checkstring(L, 2);
    size_t start = esl_start_position(luaL_optinteger(L, 3, 1), length) - 1;
    if (start > length) start = length + 1; /* nothing left to match */
    lua_settop(L, 2);
    lua_pushinteger(L, (lua_Integer)start);
    lua_pushinteger(L, -1);
    lua_pushcclosure(L, esl_gmatch_next, 4);
    return 1;
}

/* Adds a replacement string to `out`, its %0 to %9 and %% expanded. */
static void esl_add_expanded(esl_matcher *m, luaL_Buffer *out, const char *s, const char *e) {
    lua_State *L = m->L;
    size_t length;
    const char *text = lua_tolstring(L, 3, &length);
    const char *text_end = text + length;
    for (;;) {
        const char *escape = memchr(text, ESL_ESCAPE, (size_t)(text_end - text));
        if (escape == NULL) break;
        luaL_addlstring(out, text, (size_t)(escape - text));
        char code = escape + 1 < text_end ? escape[1] : '\0';
        if (code == ESL_ESCAPE) {
            luaL_addchar(out, ESL_ESCAPE);
        } else if (code == '0') {
            luaL_addlstring(out, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)code)) {
            esl_push_capture(m, code - '1', s, e);
            luaL_tolstring(L, -1, NULL);
            lua_remove(L, -2);
            luaL_addvalue(out);
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", ESL_ESCAPE);
        }
        text = escape + 2;
    }
    luaL_addlstring(out, text, (size_t)(text_end - text));
}

/* Where gsub is in its subject: the part since the last replacement is copied out only once a
   replacement follows it, so a gsub that changes nothing copies nothing and returns its subject (as
   stock Lua does), and one 150 MiB subject is never held twice for nothing. */
typedef struct esl_gsub_state {
    luaL_Buffer out;
    const char *unchanged_from; /* the first byte not yet copied to `out` */
    int held;                   /* a stack slot below the buffer, for a replacement value on its way */
    int changed;
} esl_gsub_state;

/* Copies the subject up to `upto` into the result: the caller is about to add a replacement. */
static void esl_flush_unchanged(esl_gsub_state *g, const char *upto) {
    luaL_addlstring(&g->out, g->unchanged_from, (size_t)(upto - g->unchanged_from));
    g->changed = 1;
}

/* Replaces the match from `s` to `e`: with the expanded string, the table's value for the first
   capture, or the function's result. False or nil keep the match as it was: nothing is copied then. */
static void esl_add_replacement(esl_matcher *m, esl_gsub_state *g, const char *s, const char *e, int type) {
    lua_State *L = m->L;
    if (type == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int count = esl_push_captures(m, s, e);
        lua_call(L, count, 1);
    } else if (type == LUA_TTABLE) {
        esl_push_capture(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        esl_flush_unchanged(g, s);
        esl_add_expanded(m, &g->out, s, e);
        g->unchanged_from = e;
        return;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    if (!lua_isstring(L, -1)) luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    /* A buffer operation needs the stack as the last one left it: the value waits below the buffer. */
    lua_replace(L, g->held);
    esl_flush_unchanged(g, s);
    lua_pushvalue(L, g->held);
    luaL_addvalue(&g->out);
    g->unchanged_from = e;
}

static int esl_gsub(lua_State *L) {
    size_t length, pattern_length;
    const char *subject = luaL_checklstring(L, 1, &length);
    const char *pattern = luaL_checklstring(L, 2, &pattern_length);
    int type = lua_type(L, 3);
    lua_Integer most = luaL_optinteger(L, 4, (lua_Integer)length + 1);
    luaL_argexpected(L, type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TFUNCTION || type == LUA_TTABLE,
                     3, "string/function/table");
    int anchored = esl_strip_anchor(&pattern, &pattern_length);
    esl_matcher m;
    esl_matcher_init(&m, L, subject, length, pattern, pattern_length);
    esl_gsub_state g;
    lua_settop(L, 4);
    lua_pushnil(L);
    g.held = lua_gettop(L);
    g.unchanged_from = subject;
    g.changed = 0;
    luaL_buffinit(L, &g.out);
    const char *s = subject, *last_end = NULL;
    lua_Integer count = 0;
    while (count < most) {
        esl_matcher_restart(&m);
        const char *end = esl_match(&m, s, pattern);
        if (end != NULL && end != last_end) {
            count++;
            esl_add_replacement(&m, &g, s, end, type);
            s = last_end = end;
        } else if (s < m.subject_end) {
            s++;
        } else {
            break;
        }
        if (anchored) break;
    }
    esl_settle(&m);
    if (g.changed) {
        luaL_addlstring(&g.out, g.unchanged_from, (size_t)(m.subject_end - g.unchanged_from));
        luaL_pushresult(&g.out);
    } else {
        lua_pushvalue(L, 1);
    }
    lua_pushinteger(L, count);
    return 2;
}

void esl_push_pattern_functions(lua_State *L) {
    static const luaL_Reg functions[] = {
        {"find", esl_find},
        {"match", esl_string_match},
        {"gmatch", esl_gmatch},
        {"gsub", esl_gsub},
        {NULL, NULL},
    };
    luaL_newlib(L, functions);
}
