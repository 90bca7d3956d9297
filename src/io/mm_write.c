/* SPDX-License-Identifier: BSD-3-Clause */
/* mm_write.c: Matrix Market writing (CSR, dense, vectors).  A file goes to
 * "<path>.tmp.XXXXXX" in the target's directory, and rename() replaces the
 * target only once every byte is written: a reader never sees a half-written
 * file.  A target that exists and is not a regular file (/dev/null,
 * /dev/stdout, a FIFO) is written in place: renamed over, the device or pipe
 * would be replaced by a file.  gzip when the name ends in .gz. */
#define _POSIX_C_SOURCE 200809L

#include "io/mm_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

typedef struct writer {
    const char *path;
    char *tmp; /* "<path>.tmp.XXXXXX", created by mkstemp */
    gzFile gz; /* zlib writes gzip, or plain bytes ("T" mode) */
    locale_t c_locale, saved_locale;
} writer;

static hpls_status io_error(const char *path, const char *what, int err)
{
    return hpls_fail(HPLS_ERR_IO, "%s: %s: %s", path, what, strerror(err));
}

/* The message of a failed gzprintf or gzclose (errno is only meaningful for Z_ERRNO). */
static hpls_status write_error(const writer *w, int zerr, int saved_errno)
{
    return io_error(w->path, "cannot write", zerr == Z_ERRNO ? saved_errno : EIO);
}

/* The writer's zlib stream on fd and its C locale. */
static hpls_status writer_stream(writer *w, int fd, int gzip)
{
    w->gz = gzdopen(fd, gzip ? "wb" : "wbT");
    if (!w->gz) {
        close(fd);
        return hpls_fail(HPLS_ERR_NOMEM, "%s: out of memory opening the file", w->path);
    }
    gzbuffer(w->gz, 1 << 17);
    if (!hpls_mm_c_locale(&w->c_locale, &w->saved_locale))
        return hpls_fail(HPLS_ERR_NOMEM, "%s: cannot create the C locale", w->path);
    return HPLS_OK;
}

static hpls_status writer_open(writer *w, const char *path)
{
    static const char suffix[] = ".tmp.XXXXXX";
    memset(w, 0, sizeof *w);
    w->path = path;
    size_t n = strlen(path);
    int gzip = n >= 3 && strcmp(path + n - 3, ".gz") == 0;
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
        int fd = open(path, O_WRONLY);
        if (fd < 0)
            return io_error(path, "cannot open", errno);
        return writer_stream(w, fd, gzip);
    }
    w->tmp = hpls_malloc((hpls_int)(n + sizeof suffix), 1);
    if (!w->tmp)
        return hpls_mm_restate(HPLS_ERR_NOMEM, path);
    memcpy(w->tmp, path, n);
    memcpy(w->tmp + n, suffix, sizeof suffix);
    int fd = mkstemp(w->tmp);
    if (fd < 0) {
        hpls_status st = io_error(path, "cannot create a temporary file beside it", errno);
        hpls_free(w->tmp);
        w->tmp = NULL;
        return st;
    }
    /* mkstemp makes the file private (0600): give it the target's mode, or rw-r--r-- */
    mode_t mode = stat(path, &sb) == 0 ? (sb.st_mode & 07777) : 0644;
    if (fchmod(fd, mode) != 0) {
        hpls_status st = io_error(path, "cannot set the mode of the temporary file", errno);
        close(fd);
        return st;
    }
    return writer_stream(w, fd, gzip);
}

/* Finishes a write begun by writer_open (even a failed one): if everything
 * succeeded, the temporary file replaces the target; otherwise it is removed. */
static hpls_status writer_close(writer *w, hpls_status st)
{
    if (w->gz) {
        int zerr = gzclose(w->gz);
        int saved_errno = errno;
        if (zerr != Z_OK && st == HPLS_OK)
            st = write_error(w, zerr, saved_errno);
    }
    if (w->tmp && st == HPLS_OK && rename(w->tmp, w->path) != 0)
        st = io_error(w->path, "cannot rename the temporary file over it", errno);
    if (w->tmp && st != HPLS_OK)
        unlink(w->tmp);
    hpls_free(w->tmp);
    hpls_mm_restore_locale(w->c_locale, w->saved_locale);
    return st;
}

/* Status of the last gzprintf, which returns <= 0 on failure. */
static hpls_status printed(const writer *w, int ret)
{
    if (ret > 0)
        return HPLS_OK;
    int saved_errno = errno, zerr;
    gzerror(w->gz, &zerr);
    return write_error(w, zerr, saved_errno);
}

hpls_status hpls_mm_write_csr(const char *path, const hpls_csr *A)
{
    if (!path || !A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_mm_write_csr: NULL argument");
    hpls_status st = hpls_csr_check(A); /* a NaN written would not read back */
    if (st != HPLS_OK)
        return hpls_mm_restate(st, path);
    writer w;
    st = writer_open(&w, path);
    if (st == HPLS_OK)
        st = printed(&w, gzprintf(w.gz,
                                  "%%%%MatrixMarket matrix coordinate real general\n"
                                  "%lld %lld %lld\n",
                                  (long long)A->nrows, (long long)A->ncols, (long long)A->nnz));
    for (hpls_int i = 0; i < A->nrows && st == HPLS_OK; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1] && st == HPLS_OK; p++)
            st = printed(&w, gzprintf(w.gz, "%lld %ld %.17g\n", (long long)i + 1,
                                      (long)A->colind[p] + 1, A->val[p]));
    return writer_close(&w, st);
}

hpls_status hpls_mm_write_dense(const char *path, const hpls_dense *A)
{
    if (!path || !A || A->nrows < 0 || A->ncols < 0 || (A->nrows * A->ncols > 0 && !A->data))
        return hpls_fail(HPLS_ERR_ARG, "hpls_mm_write_dense: NULL or negative-size matrix");
    hpls_int m = A->nrows, n = A->ncols;
    for (hpls_int k = 0; k < m * n; k++)
        if (!isfinite(A->data[k]))
            return hpls_fail(HPLS_ERR_VALUE, "%s: cannot write value %g at row %lld, column %lld",
                             path, A->data[k], (long long)(k / n) + 1, (long long)(k % n) + 1);
    writer w;
    hpls_status st = writer_open(&w, path);
    if (st == HPLS_OK)
        st = printed(&w, gzprintf(w.gz, "%%%%MatrixMarket matrix array real general\n%lld %lld\n",
                                  (long long)m, (long long)n));
    for (hpls_int j = 0; j < n && st == HPLS_OK; j++) /* the format is column by column */
        for (hpls_int i = 0; i < m && st == HPLS_OK; i++)
            st = printed(&w, gzprintf(w.gz, "%.17g\n", A->data[i * n + j]));
    return writer_close(&w, st);
}

hpls_status hpls_mm_write_vec(const char *path, const hpls_vec *v)
{
    if (!path || !v || (v->n > 0 && !v->data) || v->n < 0)
        return hpls_fail(HPLS_ERR_ARG, "hpls_mm_write_vec: NULL or negative-length vector");
    for (hpls_int i = 0; i < v->n; i++)
        if (!isfinite(v->data[i]))
            return hpls_fail(HPLS_ERR_VALUE, "%s: cannot write value %g at row %lld", path,
                             v->data[i], (long long)i + 1);
    writer w;
    hpls_status st = writer_open(&w, path);
    if (st == HPLS_OK)
        st = printed(&w, gzprintf(w.gz, "%%%%MatrixMarket matrix array real general\n%lld 1\n",
                                  (long long)v->n));
    for (hpls_int i = 0; i < v->n && st == HPLS_OK; i++)
        st = printed(&w, gzprintf(w.gz, "%.17g\n", v->data[i]));
    return writer_close(&w, st);
}
