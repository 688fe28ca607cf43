/* Line coverage: how many times each line of each file's code ran, counted by the line events of the
   hook that spends the budget (budget.c) while coverage is on. Only chunks the host loaded from files
   count (esl_coverage_note_file: a script's files, required modules, loadfile): a chunk name a script
   gives `load` ("@anything") names no file of its own. The counts live outside the Lua heap, bounded by
   ESL_COVERAGE_FILES files (each one the host read) of at most ESL_COVERAGE_LINES lines. */
#include "CLuaSupport.h"
#include <stdlib.h>
#include <string.h>

#define ESL_COVERAGE_FILES 100000
#define ESL_COVERAGE_LINES 1000000

typedef struct esl_coverage_file {
    char *name;          /* the chunk's source without its '@' */
    unsigned long long *hits;
    int size;            /* entries of hits: lines 0 ..< size */
} esl_coverage_file;

struct esl_coverage {
    esl_coverage_file *files;
    int count, capacity;
    int *slots;          /* open addressing by the name's hash: index + 1, 0 for empty */
    int slot_count;      /* a power of two, at least twice count */
    const char *last_source;
    int last_index;
};

static unsigned long esl_hash(const char *text) {
    unsigned long hash = 2166136261u;
    for (; *text; text++) hash = (hash ^ (unsigned char)*text) * 16777619u;
    return hash;
}

static int esl_grow_slots(esl_coverage *coverage) {
    int count = coverage->slot_count ? coverage->slot_count * 2 : 64;
    int *slots = calloc((size_t)count, sizeof(int));
    if (slots == NULL) return 0;
    for (int i = 0; i < coverage->count; i++) {
        unsigned long at = esl_hash(coverage->files[i].name) & (unsigned long)(count - 1);
        while (slots[at]) at = (at + 1) & (unsigned long)(count - 1);
        slots[at] = i + 1;
    }
    free(coverage->slots);
    coverage->slots = slots;
    coverage->slot_count = count;
    return 1;
}

/* The index of `name`'s file, added when new and `adds`; -1 when it is not there or cannot be (out of
   memory, too many files). */
static int esl_coverage_index(esl_coverage *coverage, const char *name, int adds) {
    if (coverage->slot_count == 0 && !esl_grow_slots(coverage)) return -1;
    unsigned long mask = (unsigned long)(coverage->slot_count - 1);
    unsigned long at = esl_hash(name) & mask;
    while (coverage->slots[at]) {
        int index = coverage->slots[at] - 1;
        if (strcmp(coverage->files[index].name, name) == 0) return index;
        at = (at + 1) & mask;
    }
    if (!adds || coverage->count >= ESL_COVERAGE_FILES) return -1;
    if (coverage->count == coverage->capacity) {
        int capacity = coverage->capacity ? coverage->capacity * 2 : 16;
        esl_coverage_file *files = realloc(coverage->files, (size_t)capacity * sizeof *files);
        if (files == NULL) return -1;
        coverage->files = files;
        coverage->capacity = capacity;
    }
    char *copy = strdup(name);
    if (copy == NULL) return -1;
    int index = coverage->count++;
    coverage->files[index] = (esl_coverage_file){copy, NULL, 0};
    coverage->slots[at] = index + 1;
    if (coverage->count * 2 > coverage->slot_count) esl_grow_slots(coverage);
    return index;
}

void esl_coverage_record(lua_State *L, lua_Debug *ar) {
    esl_coverage *coverage = esl_runtime_of(L)->coverage;
    if (coverage == NULL || ar->currentline < 0 || ar->currentline >= ESL_COVERAGE_LINES) return;
    if (!lua_getinfo(L, "S", ar) || ar->source == NULL || ar->source[0] != '@') return;
    const char *name = ar->source + 1;
    int index;
    if (ar->source == coverage->last_source && strcmp(coverage->files[coverage->last_index].name, name) == 0) {
        index = coverage->last_index;
    } else {
        index = esl_coverage_index(coverage, name, 0);
        if (index < 0) return;
        coverage->last_source = ar->source;
        coverage->last_index = index;
    }
    esl_coverage_file *file = &coverage->files[index];
    if (ar->currentline >= file->size) {
        int size = file->size ? file->size : 64;
        while (size <= ar->currentline) size *= 2;
        unsigned long long *hits = realloc(file->hits, (size_t)size * sizeof *hits);
        if (hits == NULL) return;
        memset(hits + file->size, 0, (size_t)(size - file->size) * sizeof *hits);
        file->hits = hits;
        file->size = size;
    }
    file->hits[ar->currentline]++;
}

void esl_coverage_note_file(lua_State *L, const char *name) {
    esl_coverage *coverage = esl_runtime_of(L)->coverage;
    if (coverage == NULL) return;
    /* A name with a control character would break the files that list them, line by line. */
    for (const char *c = name; *c; c++) if ((unsigned char)*c < 0x20 || *c == 0x7F) return;
    esl_coverage_index(coverage, name, 1);
}

int esl_coverage_start(lua_State *L) {
    esl_runtime *rt = esl_runtime_of(L);
    if (rt->coverage == NULL) {
        rt->coverage = calloc(1, sizeof(esl_coverage));
        if (rt->coverage == NULL) return 0;
    }
    esl_install_hook(L);
    return 1;
}

int esl_coverage_file_count(lua_State *L) {
    esl_coverage *coverage = esl_runtime_of(L)->coverage;
    return coverage ? coverage->count : 0;
}

const char *esl_coverage_file_name(lua_State *L, int index) {
    return esl_runtime_of(L)->coverage->files[index].name;
}

int esl_coverage_file_lines(lua_State *L, int index, const unsigned long long **hits) {
    esl_coverage_file *file = &esl_runtime_of(L)->coverage->files[index];
    *hits = file->hits;
    return file->size;
}

void esl_coverage_free(esl_coverage *coverage) {
    if (coverage == NULL) return;
    for (int i = 0; i < coverage->count; i++) {
        free(coverage->files[i].name);
        free(coverage->files[i].hits);
    }
    free(coverage->files);
    free(coverage->slots);
    free(coverage);
}
