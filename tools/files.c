/* SPDX-License-Identifier: BSD-3-Clause */
/* files.c: what the command does around its files and signals, so that no
 * failure or interruption loses or half-writes one:
 *  - inputs must be regular files (a FIFO without a writer would block the
 *    open forever, a directory reads as an I/O error deep in the parser);
 *  - two spellings of one path (./x, a symlink, a hard link) are the same file;
 *  - an output is written inside a private directory beside its target,
 *    "<path>.tmp.XXXXXX/<name>" (the name keeps its .gz), and renamed over the
 *    target only at commit, with SIGINT/SIGTERM blocked, after a last look at
 *    the interruption flag: an interrupted run writes none of its outputs;
 *    a target that is a device or a FIFO (-o /dev/null, /dev/stdout, a pipe)
 *    is written in place, never renamed over (that would replace the device
 *    with a file, as it once did to /dev/null);
 *  - SIGINT and SIGTERM only set a flag (the solve's monitor polls it) and put
 *    the default actions back, so a second signal kills at once. */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp, sigaction */
#include "cli.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;     /* the signal number, 0 if none */
static atomic_flag caught = ATOMIC_FLAG_INIT; /* set by the first signal, in any thread */
static struct sigaction default_action;       /* SIG_DFL, set before any handler runs */

/* Only async-signal-safe work.  The first signal is noted and gives both signals
 * their default action back, so that a later one terminates; a second one that
 * reached the handler anyway (delivered to another thread at the same moment)
 * terminates now: re-raised with the default action, it is delivered on return. */
static void on_signal(int sig)
{
    sigaction(SIGINT, &default_action, NULL);
    sigaction(SIGTERM, &default_action, NULL);
    if (atomic_flag_test_and_set(&caught))
        raise(sig);
    else
        interrupted = sig;
}

void cli_catch_signals(void)
{
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* a read in progress goes on instead of failing with EINTR */
    const int sigs[2] = {SIGINT, SIGTERM};
    for (int k = 0; k < 2; k++) {
        struct sigaction old;
        /* a signal ignored on entry (nohup, a shell's background job) stays ignored */
        if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[k], &sa, NULL);
    }
}

int cli_interrupted(void)
{
    return interrupted;
}

int cli_interrupt_report(const char *when, const char *outcome, const char *path)
{
    int sig = interrupted;
    fprintf(stderr, "hpls: interrupted by %s %s; %s%s\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
            when, outcome, path ? path : "");
    return 128 + sig; /* the shell's convention for a death by signal */
}

int cli_interrupt_exit(const char *when)
{
    return cli_interrupt_report(when, "no output written", NULL);
}

int cli_check_input(const char *path, const char *what)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return cli_error("cannot read the %s %s: %s", what, path, strerror(errno));
    if (S_ISDIR(sb.st_mode))
        return cli_error("cannot read the %s %s: it is a directory", what, path);
    if (!S_ISREG(sb.st_mode))
        return cli_error("cannot read the %s %s: not a regular file (%s)", what, path,
                         S_ISFIFO(sb.st_mode) ? "a FIFO, whose open could wait forever"
                                              : "a device or socket");
    return 0;
}

/* The absolute name path would have: its directory resolved, its last component
 * kept.  0 if the directory does not resolve. */
static int canonical(const char *path, char *out, size_t len)
{
    char *d = strdup(path), *b = strdup(path);
    char dir[PATH_MAX];
    int ok = d && b && realpath(dirname(d), dir) != NULL;
    if (ok)
        ok = snprintf(out, len, "%s/%s", dir, basename(b)) < (int)len;
    free(d);
    free(b);
    return ok;
}

int cli_same_path(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ca[PATH_MAX + NAME_MAX + 2], cb[PATH_MAX + NAME_MAX + 2];
    return canonical(a, ca, sizeof ca) && canonical(b, cb, sizeof cb) && strcmp(ca, cb) == 0;
}

int cli_same_file(const char *path, const char *const *inputs, int n)
{
    for (int k = 0; k < n; k++)
        if (inputs[k] && cli_same_path(path, inputs[k]))
            return 1;
    return 0;
}

/* "<path>.tmp.XXXXXX" made by mkdtemp, or NULL with errno set. */
static char *make_tmpdir(const char *path)
{
    size_t len = strlen(path) + sizeof ".tmp.XXXXXX";
    char *dir = malloc(len);
    if (!dir)
        return NULL;
    snprintf(dir, len, "%s.tmp.XXXXXX", path);
    if (!mkdtemp(dir)) {
        int err = errno;
        free(dir);
        errno = err;
        return NULL;
    }
    return dir;
}

/* Whether path exists and is neither a regular file nor a directory: a device,
 * FIFO or socket, written in place. */
static int special(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

int cli_output_probe(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return cli_error("cannot write %s: it is a directory", path);
    if (special(path))
        return access(path, W_OK) == 0 ? 0 : cli_error("cannot write %s: %s", path, strerror(errno));
    /* creating is the only test that holds for root and read-only mounts alike */
    char *dir = make_tmpdir(path);
    if (!dir)
        return cli_error("cannot write %s: %s", path, strerror(errno));
    rmdir(dir);
    free(dir);
    return 0;
}

int cli_output_begin(cli_output *o, const char *path)
{
    o->path = path;
    o->file = NULL;
    o->in_place = special(path);
    if (o->in_place) {
        o->file = strdup(path);
        return o->file ? 0 : cli_error("out of memory");
    }
    char *dir = make_tmpdir(path);
    if (!dir)
        return cli_error("cannot write %s: %s", path, strerror(errno));
    char *copy = strdup(path);
    size_t len = strlen(dir) + strlen(path) + 2;
    o->file = copy ? malloc(len) : NULL;
    if (o->file)
        snprintf(o->file, len, "%s/%s", dir, basename(copy));
    free(copy);
    free(dir);
    if (!o->file)
        return cli_error("out of memory");
    return 0;
}

void cli_output_discard(cli_output *o)
{
    if (!o->file)
        return;
    if (o->in_place) {
        free(o->file);
        o->file = NULL;
        return;
    }
    unlink(o->file);
    char *slash = strrchr(o->file, '/'); /* the private directory: everything before it */
    *slash = '\0';
    rmdir(o->file);
    free(o->file);
    o->file = NULL;
}

int cli_output_commit(cli_output *outs, int n, const char *when)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old); /* this thread; the handler only sets the flag */
    int rc = 0;
    if (interrupted)
        rc = cli_interrupt_exit(when);
    for (int k = 0; k < n && rc == 0; k++) {
        if (!outs[k].file || outs[k].in_place)
            continue;
        struct stat sb; /* a replaced file keeps its mode, as hpls_mm_write_* do */
        if (stat(outs[k].path, &sb) == 0)
            chmod(outs[k].file, sb.st_mode & 07777);
        if (rename(outs[k].file, outs[k].path) != 0)
            rc = cli_error("cannot write %s: %s", outs[k].path, strerror(errno));
    }
    for (int k = 0; k < n; k++)
        cli_output_discard(&outs[k]); /* after a rename: only the empty directory is left */
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
