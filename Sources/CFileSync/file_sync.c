#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>
#include "CFileSync.h"

int envscript_can_sync_file_system(void) {
#ifdef __linux__
    return 1;
#else
    return 0;
#endif
}

int envscript_sync_file_system(int fd) {
#ifdef __linux__
    return syncfs(fd);
#else
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}
