#ifndef ENVSCRIPT_CFILESYNC_H
#define ENVSCRIPT_CFILESYNC_H

/*
 * CFileSync: the one system call Swift's Glibc module does not show, syncfs(2), which Linux declares
 * only under _GNU_SOURCE. Making a copied tree of thousands of files durable with one syncfs is about
 * twenty times faster than one fsync per file.
 */

/* Returns 1 if envscript_sync_file_system works on this system, 0 if callers must fsync each file. */
int envscript_can_sync_file_system(void);

/* Writes every dirty page of the file system holding the open descriptor `fd` to disk: 0, or -1 with errno. */
int envscript_sync_file_system(int fd);

#endif
