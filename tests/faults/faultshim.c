/* Fault-injection shim (LD_PRELOAD): fails the Nth fdatasync/fsync/pwrite64/write on the ledger's files.
 *
 * Built by tests/test_faults.py with gcc into a pytest temp dir and preloaded into a
 * child Python process. Only calls on file descriptors whose path (readlink
 * /proc/self/fd/N) is FAULTSHIM_DIR itself or lies under it are counted or failed,
 * so the child's own stdout, stderr and pipe writes pass straight through.
 *
 * SQLite 3.40 on Linux commits a WAL transaction with pwrite64 (frames) and
 * fdatasync (the WAL, once per commit under synchronous=FULL; the directory when the
 * WAL is created), as strace shows. Python (built with 64-bit file offsets) calls
 * pwrite64 for os.pwrite, fdatasync/fsync for os.fdatasync/os.fsync and write for
 * file writes: that is how the companion writes its anchor file, which these tests
 * keep under the watched directory too.
 *
 * Control, from the environment at load time (optional):
 *   FAULTSHIM_DIR=/abs/dir  FAULTSHIM_CALL=fdatasync  FAULTSHIM_N=3  FAULTSHIM_ERRNO=5
 *   FAULTSHIM_REPORT=/file  at a normal exit, write "fired F" and "CALL COUNT" lines there
 *                           (so a test can tell that a whole command ran into its fault)
 * or from the process itself through ctypes, so one child can run many scenarios:
 *   faultshim_arm("fdatasync", 3, EIO)   fail the 3rd matching fdatasync from now, once
 *   faultshim_arm_times(call, n, err, k) fail k consecutive calls from the nth (k < 0: every later one)
 *   faultshim_arm_short(call, n)         let the nth pwrite64/write write only half its bytes and
 *                                        return that count, no error: what a disk filling up
 *                                        mid-write does (POSIX allows it); the caller must loop
 *   faultshim_disarm()                   stop failing
 *   faultshim_fired()                    faults injected since the last arm
 *   faultshim_count(call)                matching calls since the last faultshim_reset (failed ones too)
 *   faultshim_reset()                    zero the counters
 *   faultshim_set_dir(path)              change the watched directory
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

enum { C_FDATASYNC, C_FSYNC, C_PWRITE64, C_WRITE, C_COUNT };
static const char *const NAMES[C_COUNT] = {"fdatasync", "fsync", "pwrite64", "write"};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char watched[PATH_MAX];          /* empty: nothing is watched, nothing fails */
static size_t watched_len;
static long counts[C_COUNT];            /* matching calls since reset */
static int armed_call = -1;             /* which call fails, -1 none */
static long armed_seen;                 /* matching calls of armed_call since arm */
static long armed_n;                    /* first failing call (1-based) */
static long armed_times;                /* how many fail from the nth on; < 0 all */
static int armed_errno;                 /* SHORT_WRITE: a short write instead of an error */
static long fired;

#define SHORT_WRITE (-1)

static int (*real_fdatasync)(int);
static int (*real_fsync)(int);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static ssize_t (*real_write)(int, const void *, size_t);

static int call_index(const char *name) {
    for (int i = 0; i < C_COUNT; i++)
        if (name && strcmp(name, NAMES[i]) == 0) return i;
    return -1;
}

static void resolve(void) {
    /* dlsym(RTLD_NEXT) finds libc's functions behind this shim */
    if (!real_fdatasync) real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    if (!real_fsync) real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    if (!real_pwrite64)
        real_pwrite64 = (ssize_t (*)(int, const void *, size_t, off64_t))dlsym(RTLD_NEXT, "pwrite64");
    if (!real_write) real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
}

/* Is fd a file at or under the watched directory? readlink is not intercepted, so no recursion. */
static int watched_fd(int fd) {
    if (!watched_len || fd < 0) return 0;
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t len = readlink(link, target, sizeof target - 1);
    if (len < 0) return 0;
    target[len] = '\0';
    if (strncmp(target, watched, watched_len) != 0) return 0;
    return target[watched_len] == '\0' || target[watched_len] == '/';
}

/* Count one call on fd; returns the errno to fail it with, or 0 to let it through. */
static int decide(int which, int fd) {
    int saved = errno, fail = 0;
    if (!watched_fd(fd)) { errno = saved; return 0; }
    pthread_mutex_lock(&lock);
    counts[which]++;
    if (armed_call == which) {
        long seen = ++armed_seen;
        if (seen >= armed_n && (armed_times < 0 || seen < armed_n + armed_times)) {
            fail = armed_errno;
            fired++;
        }
    }
    pthread_mutex_unlock(&lock);
    errno = saved;
    return fail;
}

int fdatasync(int fd) {
    resolve();
    int err = decide(C_FDATASYNC, fd);
    if (err) { errno = err; return -1; }
    return real_fdatasync(fd);
}

int fsync(int fd) {
    resolve();
    int err = decide(C_FSYNC, fd);
    if (err) { errno = err; return -1; }
    return real_fsync(fd);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
    resolve();
    int err = decide(C_PWRITE64, fd);
    if (err == SHORT_WRITE) return real_pwrite64(fd, buf, count / 2, offset);
    if (err) { errno = err; return -1; }
    return real_pwrite64(fd, buf, count, offset);
}

ssize_t write(int fd, const void *buf, size_t count) {
    resolve();
    int err = decide(C_WRITE, fd);
    if (err == SHORT_WRITE) return real_write(fd, buf, count / 2);
    if (err) { errno = err; return -1; }
    return real_write(fd, buf, count);
}

/* ---- control API (ctypes) ---- */

int faultshim_set_dir(const char *dir) {
    pthread_mutex_lock(&lock);
    if (!dir || !*dir) {
        watched[0] = '\0';
        watched_len = 0;
    } else {
        /* the kernel reports canonical paths, so compare against the canonical directory */
        char canon[PATH_MAX];
        const char *use = realpath(dir, canon) ? canon : dir;
        snprintf(watched, sizeof watched, "%s", use);
        watched_len = strlen(watched);
        while (watched_len > 1 && watched[watched_len - 1] == '/') watched[--watched_len] = '\0';
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

static int arm(int which, long n, int err, long times) {
    pthread_mutex_lock(&lock);
    armed_call = which;
    armed_seen = 0;
    armed_n = n;
    armed_times = times;
    armed_errno = err;
    fired = 0;
    pthread_mutex_unlock(&lock);
    return 0;
}

int faultshim_arm_times(const char *call, long n, int err, long times) {
    int which = call_index(call);
    if (which < 0 || n < 1 || err <= 0 || times == 0) return -1;
    return arm(which, n, err, times);
}

int faultshim_arm_short(const char *call, long n) {
    int which = call_index(call);
    if ((which != C_PWRITE64 && which != C_WRITE) || n < 1) return -1;
    return arm(which, n, SHORT_WRITE, 1);
}

int faultshim_arm(const char *call, long n, int err) {
    return faultshim_arm_times(call, n, err, 1);
}

void faultshim_disarm(void) {
    pthread_mutex_lock(&lock);
    armed_call = -1;
    pthread_mutex_unlock(&lock);
}

long faultshim_fired(void) {
    pthread_mutex_lock(&lock);
    long out = fired;
    pthread_mutex_unlock(&lock);
    return out;
}

long faultshim_count(const char *call) {
    int which = call_index(call);
    if (which < 0) return -1;
    pthread_mutex_lock(&lock);
    long out = counts[which];
    pthread_mutex_unlock(&lock);
    return out;
}

void faultshim_reset(void) {
    pthread_mutex_lock(&lock);
    memset(counts, 0, sizeof counts);
    pthread_mutex_unlock(&lock);
}

__attribute__((destructor)) static void faultshim_report(void) {
    const char *path = getenv("FAULTSHIM_REPORT");
    if (!path) return;
    FILE *out = fopen(path, "w");
    if (!out) return;
    fprintf(out, "fired %ld\n", faultshim_fired());
    for (int i = 0; i < C_COUNT; i++) fprintf(out, "%s %ld\n", NAMES[i], faultshim_count(NAMES[i]));
    fclose(out);
}

__attribute__((constructor)) static void faultshim_init(void) {
    resolve();
    const char *dir = getenv("FAULTSHIM_DIR");
    if (dir) faultshim_set_dir(dir);
    const char *call = getenv("FAULTSHIM_CALL");
    const char *n = getenv("FAULTSHIM_N");
    const char *err = getenv("FAULTSHIM_ERRNO");
    if (call && n && err) faultshim_arm(call, atol(n), atoi(err));
}
