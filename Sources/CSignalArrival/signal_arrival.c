/* See CSignalArrival.h. */
#include "CSignalArrival.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

static atomic_int first_signal;
/* The pipe's end the handler writes to, -1 when none. */
static atomic_int wake_descriptor = -1;
/* Handlers between reading wake_descriptor and writing to it: esa_uninstall waits for none before
   it closes the descriptor, so that no handler writes to a descriptor closed (or reused) meanwhile. */
static atomic_int writers;

static void esa_handler(int number) {
    int none = 0;
    atomic_compare_exchange_strong(&first_signal, &none, number);
    int saved = errno;
    atomic_fetch_add(&writers, 1);
    int fd = atomic_load(&wake_descriptor);
    if (fd >= 0) {
        unsigned char byte = (unsigned char)number;
        ssize_t written;
        /* Non-blocking: a full pipe (signals no one reads) loses the byte, not the handler. */
        do {
            written = write(fd, &byte, 1);
        } while (written < 0 && errno == EINTR);
    }
    atomic_fetch_sub(&writers, 1);
    errno = saved;
}

int esa_install(const int *signals, int count) {
    int ends[2];
    if (pipe(ends) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        if (fcntl(ends[i], F_SETFD, FD_CLOEXEC) != 0) goto failed;
    }
    if (fcntl(ends[1], F_SETFL, O_NONBLOCK) != 0) goto failed;
    atomic_store(&first_signal, 0);
    atomic_store(&wake_descriptor, ends[1]);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = esa_handler;
    action.sa_flags = SA_RESTART;
    /* The handled signals wait for one another's handler, so the first recorded is the first heard. */
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < count; i++) sigaddset(&action.sa_mask, signals[i]);
    /* A process may start with them blocked (one started from a thread that blocks them, as Foundation's
       Process does from a dispatch worker), which a dispatch source (signalfd) does not mind but a
       handler does: they are unblocked in this thread, and in the threads it starts from now on. */
    sigset_t handled;
    sigemptyset(&handled);
    for (int i = 0; i < count; i++) sigaddset(&handled, signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
    for (int i = 0; i < count; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) {
            int error = errno;
            esa_uninstall(signals, i);
            close(ends[0]);
            errno = error;
            return -1;
        }
    }
    return ends[0];

failed:;
    int error = errno;
    close(ends[0]);
    close(ends[1]);
    errno = error;
    return -1;
}

void esa_uninstall(const int *signals, int count) {
    for (int i = 0; i < count; i++) signal(signals[i], SIG_IGN);
    int fd = atomic_exchange(&wake_descriptor, -1);
    if (fd < 0) return;
    /* A handler that read the descriptor before the exchange is at most a write away from done. */
    while (atomic_load(&writers) > 0) {}
    unsigned char end = 0;
    ssize_t written;
    do {
        written = write(fd, &end, 1);
    } while (written < 0 && errno == EINTR);
    close(fd);
}

int esa_first_signal(void) {
    return atomic_load(&first_signal);
}

int esa_end_with_parent(int signal, int parent) {
#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, (unsigned long)signal) != 0) return -1;
    /* The parent may have ended before the request: the signal would then never come. */
    return getppid() == parent ? 1 : 0;
#else
    (void)signal;
    (void)parent;
    return -1;
#endif
}
