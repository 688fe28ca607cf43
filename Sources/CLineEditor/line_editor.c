/* See CLineEditor.h. */
#include "CLineEditor.h"

#include <histedit.h>
#include <stdlib.h>
#include <string.h>

struct le_editor {
    EditLine *el;
    History *history;
    le_completer completer;
    void *context;
    FILE *out;
    char *prompt;
    int interrupted;
    char *line;
};

static le_editor *le_of(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}

static char *le_prompt(EditLine *el) {
    char *prompt = le_of(el)->prompt;
    return prompt != NULL ? prompt : (char *)"";
}

/* Ctrl-C: the line is abandoned and el_gets returns. */
static unsigned char le_interrupt(EditLine *el, int ch) {
    (void)ch;
    le_of(el)->interrupted = 1;
    return CC_NEWLINE;
}

static int le_is_name_byte(unsigned char byte) {
    return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
           byte == '_' || byte == '.' || byte == ':' || byte >= 0x80;
}

/* Lists candidates under the line, in columns that fit 80 characters. */
static void le_list(FILE *out, char **candidates, size_t count) {
    size_t widest = 0;
    for (size_t i = 0; i < count; i++) {
        size_t length = strlen(candidates[i]);
        if (length > widest) widest = length;
    }
    size_t columns = 80 / (widest + 2);
    if (columns == 0) columns = 1;
    fputc('\n', out);
    for (size_t i = 0; i < count; i++) {
        int last = (i + 1) % columns == 0 || i + 1 == count;
        if (last)
            fprintf(out, "%s\n", candidates[i]);
        else
            fprintf(out, "%-*s", (int)(widest + 2), candidates[i]);
    }
    fflush(out);
}

/* Tab: inserts what all candidates share beyond the word; lists them when that is nothing. */
static unsigned char le_complete(EditLine *el, int ch) {
    (void)ch;
    le_editor *editor = le_of(el);
    const LineInfo *info = el_line(el);
    const char *start = info->cursor;
    while (start > info->buffer && le_is_name_byte((unsigned char)start[-1])) start--;
    size_t length = (size_t)(info->cursor - start);
    /* Nothing to complete (indentation, pasted code): Tab is a tab. */
    if (length == 0) return el_insertstr(el, "\t") == 0 ? CC_REFRESH : CC_ERROR;
    char *word = strndup(start, length);
    if (word == NULL) return CC_ERROR;
    size_t count = 0;
    char **candidates = editor->completer != NULL ? editor->completer(editor->context, word, &count) : NULL;
    free(word);
    unsigned char result = CC_ERROR;
    if (candidates != NULL && count > 0) {
        size_t shared = strlen(candidates[0]);
        for (size_t i = 1; i < count; i++) {
            size_t j = 0;
            while (j < shared && candidates[i][j] == candidates[0][j]) j++;
            shared = j;
        }
        if (shared > length) {
            char *rest = strndup(candidates[0] + length, shared - length);
            if (rest != NULL && el_insertstr(el, rest) == 0) result = CC_REFRESH;
            free(rest);
        } else if (count > 1) {
            le_list(editor->out, candidates, count);
            result = CC_REDISPLAY;
        } else {
            result = CC_REFRESH;
        }
    }
    for (size_t i = 0; i < count; i++) free(candidates[i]);
    free(candidates);
    return result;
}

le_editor *le_open(const char *program, le_completer completer, void *context) {
    FILE *in = stdin, *out = stdout, *err = stderr;
    le_editor *editor = calloc(1, sizeof *editor);
    if (editor == NULL) return NULL;
    editor->el = el_init(program, in, out, err);
    editor->history = history_init();
    if (editor->el == NULL || editor->history == NULL) {
        le_close(editor);
        return NULL;
    }
    HistEvent event;
    history(editor->history, &event, H_SETSIZE, 1000);
    history(editor->history, &event, H_SETUNIQUE, 1);
    editor->completer = completer;
    editor->context = context;
    editor->out = out;
    editor->prompt = strdup("");
    el_set(editor->el, EL_CLIENTDATA, editor);
    el_set(editor->el, EL_EDITOR, "emacs");
    el_set(editor->el, EL_SIGNAL, 1);
    el_set(editor->el, EL_PROMPT, le_prompt);
    el_set(editor->el, EL_HIST, history, editor->history);
    /* Ctrl-C reaches the editor as a key while a line is edited, not as SIGINT. */
    el_set(editor->el, EL_SETTY, "-d", "-isig", NULL);
    el_set(editor->el, EL_ADDFN, "envscript-interrupt", "abandon the line", le_interrupt);
    el_set(editor->el, EL_BIND, "^C", "envscript-interrupt", NULL);
    el_set(editor->el, EL_ADDFN, "envscript-complete", "complete a name", le_complete);
    el_set(editor->el, EL_BIND, "^I", "envscript-complete", NULL);
    return editor;
}

void le_close(le_editor *editor) {
    if (editor == NULL) return;
    if (editor->el != NULL) el_end(editor->el);
    if (editor->history != NULL) history_end(editor->history);
    free(editor->line);
    free(editor->prompt);
    free(editor);
}

const char *le_read_line(le_editor *editor, const char *prompt, int *interrupted) {
    char *copy = strdup(prompt);
    if (copy == NULL) return NULL;
    free(editor->prompt);
    editor->prompt = copy;
    editor->interrupted = 0;
    int count = 0;
    const char *read = el_gets(editor->el, &count);
    *interrupted = editor->interrupted;
    if (editor->interrupted) {
        fputc('\n', editor->out);
        fflush(editor->out);
        return "";
    }
    if (read == NULL || count <= 0) return NULL;
    free(editor->line);
    editor->line = strndup(read, (size_t)count);
    if (editor->line == NULL) return NULL;
    size_t length = strlen(editor->line);
    if (length > 0 && editor->line[length - 1] == '\n') editor->line[length - 1] = '\0';
    return editor->line;
}

void le_add_history(le_editor *editor, const char *entry) {
    HistEvent event;
    history(editor->history, &event, H_ENTER, entry);
}
