/* SPDX-License-Identifier: BSD-3-Clause */
/* mm_parse.h: the Matrix Market reader of mmio.c (bytes, tokens, the header,
 * coordinate entries), shared with the parallel reader (src/mpi/mmio_dist.c),
 * which runs the same parser over each rank's byte range of one file: every
 * check and every message ("FILE:LINE: what is wrong (token)") is the
 * one-process reader's.
 *
 * A reader reads the whole file through zlib (gzip or plain), or a byte range
 * [begin, end) of a plain file with pread, its first line numbered as the
 * caller says.  Opening switches the thread to the C locale (strtod), closing
 * restores it: open one reader at a time per thread. */
#ifndef HPLS_IO_MM_PARSE_H
#define HPLS_IO_MM_PARSE_H

#include "core/internal.h"

#include <locale.h>
#include <stdint.h>
#include <zlib.h>

#define HPLS_MM_TOKEN_MAX 100 /* longest token accepted */

enum { HPLS_MM_REAL, HPLS_MM_INTEGER, HPLS_MM_PATTERN };   /* field */
enum { HPLS_MM_GENERAL, HPLS_MM_SYMMETRIC, HPLS_MM_SKEW }; /* symmetry */

typedef struct hpls_mm_reader {
    const char *path;
    gzFile gz;                       /* the whole file, or NULL: a range */
    int fd;                          /* a range: the file, or -1 */
    int64_t off, end;                /* a range: next byte to read, end of the range */
    char *buf;                       /* 1 MiB */
    size_t pos, len;                 /* next unread byte, bytes in buf */
    int64_t base;                    /* offset of buf[0] in the (uncompressed) file */
    int eof;                         /* nothing more to read */
    hpls_status err;                 /* why reading stopped (message already recorded) */
    long line;                       /* line of the next unread byte */
    char tok[HPLS_MM_TOKEN_MAX + 1]; /* the last token, NUL-terminated */
    size_t toklen;                   /* its length (a NUL byte in the file stays visible) */
    locale_t c_locale, saved_locale;
} hpls_mm_reader;

typedef struct hpls_mm_header {
    int array;             /* 1: array (dense, column-major); 0: coordinate */
    int field;             /* HPLS_MM_REAL, _INTEGER, _PATTERN */
    int symmetry;          /* HPLS_MM_GENERAL, _SYMMETRIC, _SKEW */
    hpls_int nrows, ncols; /* declared dimensions */
    hpls_int entries;      /* entries stored in the file */
    long size_line;        /* line of the size line, for messages */
} hpls_mm_header;

/* Where parsed entries go: COO triplets (rows, cols, vals with room for every
 * entry and its mirror), or a zeroed row-major dense array. */
typedef struct hpls_mm_sink {
    hpls_int *rows, *cols; /* 0-based triplets (NULL when dense is used) */
    hpls_real *vals;
    hpls_int n;       /* triplets stored */
    hpls_real *dense; /* nrows*ncols values, a[i*ncols + j], or NULL */
    hpls_int ncols;
    int assign; /* dense from an array file: store, so -0.0 stays -0.0 */
} hpls_mm_sink;

/* The whole file, from line 1. */
hpls_status hpls_mm_open(hpls_mm_reader *r, const char *path);
/* Bytes begin .. end-1 of the plain file path, the first of them on line
 * `line`; the range ends like a file. */
hpls_status hpls_mm_open_range(hpls_mm_reader *r, const char *path, int64_t begin, int64_t end,
                               long line);
/* Safe on a reader whose open failed part way. */
void hpls_mm_close(hpls_mm_reader *r);
/* Bytes consumed so far: the offset of the next unread byte in the file (in
 * the uncompressed stream for gzip). */
int64_t hpls_mm_offset(const hpls_mm_reader *r);
/* 1 when the whole-file reader reads the bytes as they are (not gzip). */
int hpls_mm_plain(const hpls_mm_reader *r);
/* Skips the rest of the line, its newline included (to the end if none). */
hpls_status hpls_mm_skip_line(hpls_mm_reader *r);

/* The banner and the size line; r is left at the first line after them. */
hpls_status hpls_mm_read_header(hpls_mm_reader *r, hpls_mm_header *h);
/* Before allocating `bytes` for the declared sizes: fails when the machine
 * cannot hold them (HPLS_ERR_NOMEM) or the file is too short for the entries
 * it declares (HPLS_ERR_PARSE).  r: the whole-file reader of the header. */
hpls_status hpls_mm_check_memory(const hpls_mm_reader *r, const hpls_mm_header *h, double bytes);

/* Reads to the end, counting newlines (*lines) and the lines holding
 * something besides blanks (*entries: each is an entry, or a fault, to the
 * entry parser). */
hpls_status hpls_mm_count_lines(hpls_mm_reader *r, hpls_int *lines, hpls_int *entries);
/* Coordinate entries "i j [value]" from r's position to its end, the first of
 * them entry k0 of the file (0-based): each checked and put into s (its
 * mirror too, under symmetric storage), blank lines skipped; entry number
 * h->entries is one more than declared, an error naming its line.  *k: the
 * index after the last entry read.  The caller checks that the file held all
 * the entries declared. */
hpls_status hpls_mm_read_entries(hpls_mm_reader *r, const hpls_mm_header *h, hpls_int k0,
                                 hpls_mm_sink *s, hpls_int *k);
/* The fault of a file that ends on `line` after k of the entries declared. */
hpls_status hpls_mm_ends_early(const char *path, long line, const hpls_mm_header *h, hpls_int k);
/* The whole file's coordinate entries into s (mmio.c; mm_read.c builds
 * from them): all of those declared, no more. */
hpls_status hpls_mm_read_coordinate(hpls_mm_reader *r, const hpls_mm_header *h, hpls_mm_sink *s);
/* Fills a zeroed row-major nrows x ncols array a from either format. */
hpls_status hpls_mm_read_into_dense(hpls_mm_reader *r, const hpls_mm_header *h, hpls_real *a);
/* HPLS_ERR_VALUE naming the first entry of A (rows first, first+1 ... of the
 * file's matrix) whose duplicates summed to an infinity. */
hpls_status hpls_mm_check_sums(const char *path, const hpls_csr *A, hpls_int first);

/* Shared with mm_write.c.  An allocation failure's message with the file's
 * name added (allocation failures are recorded without context). */
hpls_status hpls_mm_restate(hpls_status st, const char *path);
/* strtod and printf follow LC_NUMERIC; a program running in a locale with a
 * decimal comma must still read and write "1.5", so this thread switches to
 * C (0: it could not) and back. */
int hpls_mm_c_locale(locale_t *c, locale_t *saved);
void hpls_mm_restore_locale(locale_t c, locale_t saved);

#endif /* HPLS_IO_MM_PARSE_H */
