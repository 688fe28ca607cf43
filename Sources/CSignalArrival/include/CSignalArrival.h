/* The moment a signal arrives, recorded by a real signal handler (sigaction), for `envscript run`'s
   Ctrl-C: a dispatch source or a thread hears of a signal only when it gets to run, by which time the
   code the signal should have stopped may have gone on (a test whose child process the same Ctrl-C
   killed ends at once, and the next tests start). The handler only stores to atomics and writes one
   byte to a pipe (both async-signal-safe); whatever else the signal does is done by whoever reads
   the pipe. One set of signals per process at a time. */
#ifndef ENVSCRIPT_SIGNAL_ARRIVAL_H
#define ENVSCRIPT_SIGNAL_ARRIVAL_H

/* Forgets any signal recorded before, then handles `signals` (count of them) with the recording
   handler (SA_RESTART, so blocking calls go on rather than fail with EINTR): each arrival records
   its number if none is recorded yet, and writes the number as one byte to a pipe. The signals are
   unblocked in the calling thread (the main thread: a process started with them blocked still hears
   them). Returns the pipe's end to read (close-on-exec; the caller closes it once it has read the 0
   byte, or the end), or -1 with errno set. */
int esa_install(const int *signals, int count);

/* Stops handling `signals`: they are ignored from now on; the pipe gets a 0 byte and its writing end
   is closed. The signal recorded stays (esa_first_signal). */
void esa_uninstall(const int *signals, int count);

/* The number of the first signal that arrived since esa_install, 0 for none. */
int esa_first_signal(void);

/* Asks the kernel to send `signal` to the calling process when the thread that started it ends (Linux's
   PR_SET_PDEATHSIG): a worker process ends with its run. Returns 0 if the parent was already gone,
   1 otherwise (-1 where the kernel cannot). `parent` is the parent's pid as the worker was started. */
int esa_end_with_parent(int signal, int parent);

#endif
