/* A line editor for `envscript repl` over libedit (Debian: libedit-dev): editing, history, Tab
   completion and Ctrl-C. libedit's el_set and history are variadic, which Swift cannot call; this
   file gives them fixed signatures. */
#ifndef ENVSCRIPT_LINE_EDITOR_H
#define ENVSCRIPT_LINE_EDITOR_H

#include <stddef.h>
#include <stdio.h>

typedef struct le_editor le_editor;

/* The candidates that complete `word` (the text before the cursor back to the first byte that
   cannot be part of a dotted Lua name: letters, digits, _, . and :). Returns an array made with
   malloc of strings made with malloc, which the editor frees, and their number in *count; NULL for
   none. */
typedef char **(*le_completer)(void *context, const char *word, size_t *count);

/* Opens an editor on standard input, output and error. Ctrl-C on a terminal abandons the line being
   edited. NULL when libedit cannot start. */
le_editor *le_open(const char *program, le_completer completer, void *context);
/* Restores the terminal and frees the editor. */
void le_close(le_editor *editor);
/* Reads one line after `prompt`. Returns it without its line feed (owned by the editor, valid until
   the next call), or NULL at the end of input (Ctrl-D on an empty line). *interrupted is 1 when
   Ctrl-C abandoned the line (which is then empty), else 0. */
const char *le_read_line(le_editor *editor, const char *prompt, int *interrupted);
/* Adds an entry to the history that the arrow keys walk. */
void le_add_history(le_editor *editor, const char *entry);

#endif
