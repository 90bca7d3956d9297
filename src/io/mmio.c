/* SPDX-License-Identifier: BSD-3-Clause */
/* mmio.c: Matrix Market reading (format:
 * https://math.nist.gov/MatrixMarket/formats.html); writing is mm_write.c.
 * The tokenizer, the header and the entries stay in one file: the entry loop
 * calls the tokenizer's small functions for every value, and they inline.
 * What is built from the entries (CSR, dense, a vector) is mm_read.c.
 *
 * Reading goes through zlib, which reads gzip and plain files alike, in 1 MiB
 * chunks (or, for a byte range of a plain file, pread: mm_parse.h, the parser
 * the parallel reader shares).  The tokenizer copies each whitespace-separated
 * token (at most 100 characters) into a NUL-terminated buffer, so tokens and
 * lines may straddle chunk boundaries and no parser ever looks past the bytes
 * actually read.  Indices are parsed by hand, values by strtod in the C
 * locale.  A fault in the content is reported as "FILE:LINE: what is wrong
 * (token)"; sizes are checked against memory before anything is allocated
 * for them. */
#define _POSIX_C_SOURCE 200809L

#include "io/mm_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define CHUNK (1 << 20) /* bytes per read */

enum { CH_END = -1, CH_ERR = -2 };            /* what peekc returns besides a byte */
enum { TOK_WORD, TOK_EOL, TOK_END, TOK_ERR }; /* what next_token returns */

hpls_status hpls_mm_restate(hpls_status st, const char *path)
{
    char why[400];
    snprintf(why, sizeof why, "%s", hpls_last_error());
    return hpls_fail(st, "%s: %s", path, why);
}

int hpls_mm_c_locale(locale_t *c, locale_t *saved)
{
    *c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (*c == (locale_t)0)
        return 0;
    *saved = uselocale(*c);
    return 1;
}

void hpls_mm_restore_locale(locale_t c, locale_t saved)
{
    if (c == (locale_t)0)
        return;
    uselocale(saved);
    freelocale(c);
}

/* ---- reading: bytes and tokens ------------------------------------------ */

/* What both opens share: no file yet, the C locale. */
static hpls_status reader_init(hpls_mm_reader *r, const char *path, long line)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->fd = -1;
    r->line = line;
    if (!hpls_mm_c_locale(&r->c_locale, &r->saved_locale))
        return hpls_fail(HPLS_ERR_NOMEM, "%s: cannot create the C locale", path);
    return HPLS_OK;
}

hpls_status hpls_mm_open(hpls_mm_reader *r, const char *path)
{
    hpls_status st = reader_init(r, path, 1);
    if (st != HPLS_OK)
        return st;
    errno = 0;
    r->gz = gzopen(path, "rb");
    if (!r->gz) {
        if (errno == 0) /* zlib's own allocation failed */
            return hpls_fail(HPLS_ERR_NOMEM, "%s: out of memory opening the file", path);
        return hpls_fail(HPLS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    gzbuffer(r->gz, 1 << 17); /* fewer read calls on compressed input */
    r->buf = hpls_malloc(CHUNK, 1);
    if (!r->buf)
        return hpls_mm_restate(HPLS_ERR_NOMEM, path);
    return HPLS_OK;
}

hpls_status hpls_mm_open_range(hpls_mm_reader *r, const char *path, int64_t begin, int64_t end,
                               long line)
{
    hpls_status st = reader_init(r, path, line);
    if (st != HPLS_OK)
        return st;
    r->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0)
        return hpls_fail(HPLS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    r->off = r->base = begin;
    r->end = end;
    r->buf = hpls_malloc(CHUNK, 1);
    if (!r->buf)
        return hpls_mm_restate(HPLS_ERR_NOMEM, path);
    return HPLS_OK;
}

void hpls_mm_close(hpls_mm_reader *r)
{
    if (r->gz)
        gzclose(r->gz);
    if (r->fd >= 0)
        close(r->fd);
    hpls_free(r->buf);
    hpls_mm_restore_locale(r->c_locale, r->saved_locale);
}

int64_t hpls_mm_offset(const hpls_mm_reader *r)
{
    return r->base + (int64_t)r->pos;
}

int hpls_mm_plain(const hpls_mm_reader *r)
{
    return r->gz && gzdirect(r->gz);
}

/* The next bytes of a range: how many, 0 at its end, -1 on a failure (errno). */
static int read_range(hpls_mm_reader *r)
{
    int64_t left = r->end - r->off;
    size_t want = left < CHUNK ? (size_t)left : CHUNK;
    ssize_t n = 0;
    while (want > 0 && (n = pread(r->fd, r->buf, want, (off_t)r->off)) < 0 && errno == EINTR)
        ;
    if (n > 0)
        r->off += n;
    return (int)n;
}

/* Reads the next chunk and returns its first byte, CH_END or CH_ERR. */
static int refill(hpls_mm_reader *r)
{
    if (r->err != HPLS_OK)
        return CH_ERR;
    if (r->eof)
        return CH_END;
    int n = r->gz ? gzread(r->gz, r->buf, CHUNK) : read_range(r);
    int saved_errno = errno;
    if (n > 0) {
        r->base += (int64_t)r->len;
        r->pos = 0;
        r->len = (size_t)n;
        return (unsigned char)r->buf[0];
    }
    if (!r->gz) { /* a range */
        if (n == 0) {
            r->eof = 1;
            return CH_END;
        }
        r->err = hpls_fail(HPLS_ERR_IO, "%s:%ld: cannot read: %s", r->path, r->line,
                           strerror(saved_errno));
        return CH_ERR;
    }
    /* zlib reports a gzip stream cut short as a plain end of file, with
     * Z_BUF_ERROR left in gzerror: check it, or a truncated .gz would pass. */
    int zerr;
    const char *msg = gzerror(r->gz, &zerr);
    if (zerr == Z_OK) {
        r->eof = 1;
        return CH_END;
    }
    if (zerr == Z_ERRNO)
        r->err = hpls_fail(HPLS_ERR_IO, "%s:%ld: cannot read: %s", r->path, r->line,
                           strerror(saved_errno));
    else if (zerr == Z_MEM_ERROR)
        r->err = hpls_fail(HPLS_ERR_NOMEM, "%s:%ld: out of memory decompressing", r->path, r->line);
    else {
        size_t n = strlen(r->path); /* zlib prefixes its message with the path */
        if (strncmp(msg, r->path, n) == 0 && strncmp(msg + n, ": ", 2) == 0)
            msg += n + 2;
        r->err = hpls_fail(HPLS_ERR_PARSE, "%s:%ld: truncated or corrupt gzip data (%s)", r->path,
                           r->line, msg);
    }
    return CH_ERR;
}

static inline int peekc(hpls_mm_reader *r)
{
    return r->pos < r->len ? (unsigned char)r->buf[r->pos] : refill(r);
}

static inline int is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Skips spaces, tabs and carriage returns; returns the next byte unread. */
static int skip_blanks(hpls_mm_reader *r)
{
    int c;
    while (is_blank(c = peekc(r)))
        r->pos++;
    return c;
}

/* Skips the rest of the line, its newline included (comments may be long). */
hpls_status hpls_mm_skip_line(hpls_mm_reader *r)
{
    for (;;) {
        if (r->pos == r->len && refill(r) < 0)
            return r->err;
        char *nl = memchr(r->buf + r->pos, '\n', r->len - r->pos);
        if (nl) {
            r->pos = (size_t)(nl - r->buf) + 1;
            r->line++;
            return HPLS_OK;
        }
        r->pos = r->len;
    }
}

hpls_status hpls_mm_count_lines(hpls_mm_reader *r, hpls_int *lines, hpls_int *entries)
{
    hpls_int nl = 0, filled_lines = 0;
    int filled = 0; /* the line so far holds a byte besides blanks */
    while (r->pos < r->len || refill(r) >= 0) {
        for (; r->pos < r->len; r->pos++) {
            int c = (unsigned char)r->buf[r->pos];
            if (c == '\n') {
                nl++;
                filled_lines += filled;
                filled = 0;
            } else if (!is_blank(c)) {
                filled = 1;
            }
        }
    }
    *lines = nl;
    *entries = filled_lines + filled; /* the last line may have no newline */
    return r->err;
}

/* The next token into r->tok (TOK_WORD), or the end of a line (TOK_EOL, the
 * newline consumed), of the file (TOK_END), or a failure (TOK_ERR, r->err). */
static int next_token(hpls_mm_reader *r)
{
    int c = skip_blanks(r);
    if (c == '\n') {
        r->pos++;
        r->line++;
        return TOK_EOL;
    }
    if (c < 0)
        return c == CH_END ? TOK_END : TOK_ERR;
    size_t n = 0;
    do {
        if (n == HPLS_MM_TOKEN_MAX) {
            r->tok[n] = '\0';
            r->err =
                hpls_fail(HPLS_ERR_PARSE, "%s:%ld: token longer than %d characters ('%.24s...')",
                          r->path, r->line, HPLS_MM_TOKEN_MAX, r->tok);
            return TOK_ERR;
        }
        r->tok[n++] = (char)c;
        r->pos++;
        c = peekc(r);
    } while (c >= 0 && c != '\n' && !is_blank(c));
    if (c == CH_ERR)
        return TOK_ERR;
    r->tok[n] = '\0';
    r->toklen = n;
    return TOK_WORD;
}

static int token_is(const hpls_mm_reader *r, const char *word)
{
    return r->toklen == strlen(word) && strncasecmp(r->tok, word, r->toklen) == 0;
}

/* Parses the whole token as a decimal integer with an optional sign. */
static int parse_int(const hpls_mm_reader *r, hpls_int *out)
{
    const char *s = r->tok;
    size_t k = 0, len = r->toklen;
    int neg = len > 0 && s[0] == '-';
    if (len > 0 && (s[0] == '-' || s[0] == '+'))
        k = 1;
    if (k == len)
        return 0;
    hpls_int v = 0;
    for (; k < len; k++) {
        unsigned d = (unsigned)((unsigned char)s[k] - '0');
        if (d > 9 || v > (INT64_MAX - (hpls_int)d) / 10)
            return 0;
        v = v * 10 + (hpls_int)d;
    }
    *out = neg ? -v : v;
    return 1;
}

/* ---- reading: header ----------------------------------------------------- */

/* Reads the next banner word; fails if line 1 ends first. */
static hpls_status banner_word(hpls_mm_reader *r, const char *what)
{
    int t = next_token(r);
    if (t == TOK_ERR)
        return r->err;
    if (t != TOK_WORD)
        return hpls_fail(HPLS_ERR_PARSE, "%s:1: incomplete banner: the %s is missing", r->path,
                         what);
    return HPLS_OK;
}

/* "%%MatrixMarket matrix <coordinate|array> <field> <symmetry>", any case. */
static hpls_status read_banner(hpls_mm_reader *r, hpls_mm_header *h)
{
    int t = next_token(r);
    if (t == TOK_ERR)
        return r->err;
    if (t == TOK_END)
        return hpls_fail(HPLS_ERR_PARSE, "%s:1: empty file (no %%%%MatrixMarket banner)", r->path);
    if (t != TOK_WORD || !token_is(r, "%%MatrixMarket"))
        return hpls_fail(HPLS_ERR_PARSE, "%s:1: missing %%%%MatrixMarket banner (found '%s')",
                         r->path, t == TOK_WORD ? r->tok : "");
    hpls_status st = banner_word(r, "object");
    if (st != HPLS_OK)
        return st;
    if (!token_is(r, "matrix"))
        return hpls_fail(HPLS_ERR_PARSE, "%s:1: unknown object '%s' (expected matrix)", r->path,
                         r->tok);
    if ((st = banner_word(r, "format")) != HPLS_OK)
        return st;
    if (token_is(r, "coordinate"))
        h->array = 0;
    else if (token_is(r, "array"))
        h->array = 1;
    else
        return hpls_fail(HPLS_ERR_PARSE, "%s:1: unknown format '%s' (expected coordinate or array)",
                         r->path, r->tok);
    if ((st = banner_word(r, "field")) != HPLS_OK)
        return st;
    if (token_is(r, "real"))
        h->field = HPLS_MM_REAL;
    else if (token_is(r, "integer"))
        h->field = HPLS_MM_INTEGER;
    else if (token_is(r, "pattern"))
        h->field = HPLS_MM_PATTERN;
    else if (token_is(r, "complex"))
        return hpls_fail(HPLS_ERR_UNSUPPORTED, "%s:1: complex matrices are not supported ('%s')",
                         r->path, r->tok);
    else
        return hpls_fail(HPLS_ERR_PARSE,
                         "%s:1: unknown field '%s' (expected real, integer, pattern or complex)",
                         r->path, r->tok);
    if ((st = banner_word(r, "symmetry")) != HPLS_OK)
        return st;
    if (token_is(r, "general"))
        h->symmetry = HPLS_MM_GENERAL;
    else if (token_is(r, "symmetric"))
        h->symmetry = HPLS_MM_SYMMETRIC;
    else if (token_is(r, "skew-symmetric"))
        h->symmetry = HPLS_MM_SKEW;
    else if (token_is(r, "hermitian"))
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "%s:1: hermitian matrices are not supported ('%s': complex field)",
                         r->path, r->tok);
    else
        return hpls_fail(HPLS_ERR_PARSE,
                         "%s:1: unknown symmetry '%s' (expected general, symmetric or "
                         "skew-symmetric)",
                         r->path, r->tok);
    t = next_token(r);
    if (t == TOK_ERR)
        return r->err;
    if (t == TOK_WORD)
        return hpls_fail(HPLS_ERR_PARSE, "%s:1: unexpected '%s' after the banner", r->path, r->tok);
    /* a dense pattern is meaningless; a skew pattern cannot hold its signs */
    if (h->field == HPLS_MM_PATTERN && (h->array || h->symmetry == HPLS_MM_SKEW))
        return hpls_fail(HPLS_ERR_PARSE, "%s:1: pattern field cannot be used with %s", r->path,
                         h->array ? "array format" : "skew-symmetric storage");
    return HPLS_OK;
}

/* Skips comments and blank lines, then reads "rows cols [entries]". */
static hpls_status read_size_line(hpls_mm_reader *r, hpls_mm_header *h)
{
    for (;;) {
        int c = skip_blanks(r);
        if (c == CH_ERR)
            return r->err;
        if (c == '%') {
            hpls_status st = hpls_mm_skip_line(r);
            if (st != HPLS_OK)
                return st;
        } else if (c == '\n') {
            r->pos++;
            r->line++;
        } else {
            break;
        }
    }
    const int need = h->array ? 2 : 3;
    const char *names[3] = {"rows", "columns", "entries"};
    hpls_int v[3] = {0, 0, 0};
    h->size_line = r->line;
    for (int k = 0; k < need; k++) {
        int t = next_token(r);
        if (t == TOK_ERR)
            return r->err;
        if (t != TOK_WORD)
            return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: %s: the size line needs %s", r->path,
                             h->size_line,
                             t == TOK_END && k == 0 ? "file ends" : "size line too short",
                             h->array ? "rows and columns" : "rows, columns and entries");
        if (!parse_int(r, &v[k]))
            return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: bad number of %s '%s' on the size line",
                             r->path, h->size_line, names[k], r->tok);
        if (v[k] < 0)
            return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: negative number of %s (%lld)", r->path,
                             h->size_line, names[k], (long long)v[k]);
    }
    int t = next_token(r);
    if (t == TOK_ERR)
        return r->err;
    if (t == TOK_WORD)
        return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: unexpected '%s' after the size line", r->path,
                         h->size_line, r->tok);
    h->nrows = v[0];
    h->ncols = v[1];
    if (h->nrows > INT32_MAX || h->ncols > INT32_MAX)
        return hpls_fail(HPLS_ERR_SIZE,
                         "%s:%ld: %lld x %lld matrix exceeds the 32-bit index limit %d", r->path,
                         h->size_line, (long long)h->nrows, (long long)h->ncols, INT32_MAX);
    if (h->symmetry != HPLS_MM_GENERAL && h->nrows != h->ncols)
        return hpls_fail(HPLS_ERR_PARSE,
                         "%s:%ld: a symmetric matrix must be square, not %lld x %lld", r->path,
                         h->size_line, (long long)h->nrows, (long long)h->ncols);
    if (!h->array) {
        h->entries = v[2];
        if ((h->nrows == 0 || h->ncols == 0) && h->entries > 0)
            return hpls_fail(HPLS_ERR_PARSE,
                             "%s:%ld: %lld entries declared for an empty %lld x %lld matrix",
                             r->path, h->size_line, (long long)h->entries, (long long)h->nrows,
                             (long long)h->ncols);
    } else if (h->symmetry == HPLS_MM_GENERAL) {
        h->entries = h->nrows * h->ncols;
    } else { /* lower triangle, with the diagonal unless skew */
        hpls_int n = h->nrows;
        h->entries = h->symmetry == HPLS_MM_SYMMETRIC ? n * (n + 1) / 2 : n * (n - 1) / 2;
    }
    return HPLS_OK;
}

hpls_status hpls_mm_read_header(hpls_mm_reader *r, hpls_mm_header *h)
{
    hpls_status st = read_banner(r, h);
    return st == HPLS_OK ? read_size_line(r, h) : st;
}

/* Fails, before anything is allocated, when the file is too short for the
 * entries it declares (each takes 2 bytes at least, a digit and a separator;
 * deflate packs at most 1032 bytes into one), or when the declared sizes need
 * more bytes than one allocation may hold or the machine has (HPLS_ERR_NOMEM). */
hpls_status hpls_mm_check_memory(const hpls_mm_reader *r, const hpls_mm_header *h, double bytes)
{
    double limit = (double)HPLS_MAX_ALLOC;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (double)pages * (double)page < limit)
        limit = (double)pages * (double)page;
    if (bytes > limit)
        return hpls_fail(HPLS_ERR_NOMEM,
                         "%s:%ld: declared size %lld x %lld with %lld entries needs %.3g GB, more "
                         "than the %.3g GB this machine can hold",
                         r->path, h->size_line, (long long)h->nrows, (long long)h->ncols,
                         (long long)h->entries, bytes / 1e9, limit / 1e9);
    struct stat sb;
    if (stat(r->path, &sb) == 0 && S_ISREG(sb.st_mode) &&
        (double)h->entries > (double)sb.st_size * (gzdirect(r->gz) ? 1.0 : 1032.0) / 2.0)
        return hpls_fail(HPLS_ERR_PARSE,
                         "%s:%ld: declared size %lld x %lld with %lld entries, more than a file "
                         "of %lld bytes can hold",
                         r->path, h->size_line, (long long)h->nrows, (long long)h->ncols,
                         (long long)h->entries, (long long)sb.st_size);
    return HPLS_OK;
}

/* ---- reading: entries ---------------------------------------------------- */

static hpls_status parse_index(const hpls_mm_reader *r, long ln, const char *what, hpls_int n,
                               hpls_int *out)
{
    hpls_int v;
    if (!parse_int(r, &v))
        return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: %s index '%s' is not an integer", r->path, ln,
                         what, r->tok);
    if (v < 1 || v > n)
        return hpls_fail(HPLS_ERR_SIZE, "%s:%ld: %s index %lld is out of range 1..%lld", r->path,
                         ln, what, (long long)v, (long long)n);
    *out = v - 1;
    return HPLS_OK;
}

static hpls_status parse_value(const hpls_mm_reader *r, long ln, int field, hpls_real *out)
{
    if (field == HPLS_MM_INTEGER) {
        hpls_int v;
        if (!parse_int(r, &v))
            return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: value '%s' is not an integer", r->path, ln,
                             r->tok);
        *out = (hpls_real)v;
        return HPLS_OK;
    }
    char *end;
    double v = strtod(r->tok, &end);
    if (end == r->tok || end != r->tok + r->toklen)
        return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: value '%s' is not a number", r->path, ln, r->tok);
    if (!isfinite(v))
        return hpls_fail(HPLS_ERR_VALUE, "%s:%ld: value '%s' is not finite", r->path, ln, r->tok);
    *out = v;
    return HPLS_OK;
}

/* Reads the next field of the entry on line ln into r->tok. */
static hpls_status entry_field(hpls_mm_reader *r, long ln, const char *what)
{
    int t = next_token(r);
    if (t == TOK_ERR)
        return r->err;
    if (t != TOK_WORD)
        return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: entry line ends before the %s", r->path, ln,
                         what);
    return HPLS_OK;
}

/* Consumes the end of an entry line: nothing else may follow the entry. */
static hpls_status entry_end(hpls_mm_reader *r, long ln)
{
    int t = next_token(r);
    if (t == TOK_ERR)
        return r->err;
    if (t == TOK_WORD)
        return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: unexpected '%s' after the entry", r->path, ln,
                         r->tok);
    return HPLS_OK;
}

hpls_status hpls_mm_ends_early(const char *path, long line, const hpls_mm_header *h, hpls_int k)
{
    return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: file ends after %lld of %lld entries", path, line,
                     (long long)k, (long long)h->entries);
}

/* The token just read begins an entry past the last one declared. */
static hpls_status one_too_many(const hpls_mm_reader *r, const hpls_mm_header *h)
{
    return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: more entries than the %lld declared ('%s')", r->path,
                     r->line, (long long)h->entries, r->tok);
}

/* Skips blank lines up to the next entry; fails if the file ends first. */
static hpls_status entry_start(hpls_mm_reader *r, const hpls_mm_header *h, hpls_int k)
{
    int t;
    while ((t = next_token(r)) == TOK_EOL)
        ;
    if (t == TOK_ERR)
        return r->err;
    if (t == TOK_END)
        return hpls_mm_ends_early(r->path, r->line, h, k);
    return HPLS_OK;
}

/* After the declared entries only blank lines may follow. */
static hpls_status file_end(hpls_mm_reader *r, const hpls_mm_header *h)
{
    int t;
    while ((t = next_token(r)) == TOK_EOL)
        ;
    if (t == TOK_ERR)
        return r->err;
    if (t == TOK_WORD)
        return one_too_many(r, h);
    return HPLS_OK;
}

/* Returns 0 when summing a coordinate duplicate overflowed the place's value. */
static inline int sink_add(hpls_mm_sink *s, hpls_int i, hpls_int j, hpls_real v)
{
    if (s->dense) {
        hpls_real *a = &s->dense[i * s->ncols + j];
        *a = s->assign ? v : *a + v; /* coordinate duplicates are summed */
        return isfinite(*a);
    }
    s->rows[s->n] = i;
    s->cols[s->n] = j;
    s->vals[s->n] = v;
    s->n++;
    return 1;
}

/* Stores (i, j) = v and, under symmetric storage, its mirror (j, i). */
static hpls_status put_entry(const hpls_mm_reader *r, const hpls_mm_header *h, hpls_mm_sink *s,
                             long ln, hpls_int i, hpls_int j, hpls_real v)
{
    if (h->symmetry != HPLS_MM_GENERAL && j > i) /* the format stores the lower triangle */
        return hpls_fail(HPLS_ERR_PARSE,
                         "%s:%ld: entry (%lld, %lld) lies above the diagonal: %s storage holds the "
                         "lower triangle only",
                         r->path, ln, (long long)i + 1, (long long)j + 1,
                         h->symmetry == HPLS_MM_SKEW ? "skew-symmetric" : "symmetric");
    if (h->symmetry == HPLS_MM_SKEW && i == j && v != 0.0)
        return hpls_fail(HPLS_ERR_PARSE,
                         "%s:%ld: nonzero diagonal entry (%lld, %lld) = %.17g in a skew-symmetric "
                         "matrix",
                         r->path, ln, (long long)i + 1, (long long)j + 1, v);
    int ok = sink_add(s, i, j, v);
    if (ok && h->symmetry != HPLS_MM_GENERAL && i != j)
        ok = sink_add(s, j, i, h->symmetry == HPLS_MM_SKEW ? -v : v);
    if (!ok)
        return hpls_fail(HPLS_ERR_VALUE,
                         "%s:%ld: entry (%lld, %lld) and its duplicates sum to an infinity",
                         r->path, ln, (long long)i + 1, (long long)j + 1);
    return HPLS_OK;
}

hpls_status hpls_mm_read_entries(hpls_mm_reader *r, const hpls_mm_header *h, hpls_int k0,
                                 hpls_mm_sink *s, hpls_int *k)
{
    hpls_status st = HPLS_OK;
    for (*k = k0;; ++*k) {
        int t;
        while ((t = next_token(r)) == TOK_EOL)
            ;
        if (t == TOK_END)
            return HPLS_OK;
        if (t == TOK_ERR)
            return r->err;
        if (*k == h->entries)
            return one_too_many(r, h);
        long ln = r->line;
        hpls_int i = 0, j = 0;
        hpls_real v = 1.0; /* pattern */
        if ((st = parse_index(r, ln, "row", h->nrows, &i)) != HPLS_OK ||
            (st = entry_field(r, ln, "column index")) != HPLS_OK ||
            (st = parse_index(r, ln, "column", h->ncols, &j)) != HPLS_OK)
            return st;
        if (h->field != HPLS_MM_PATTERN && ((st = entry_field(r, ln, "value")) != HPLS_OK ||
                                            (st = parse_value(r, ln, h->field, &v)) != HPLS_OK))
            return st;
        if ((st = entry_end(r, ln)) != HPLS_OK || (st = put_entry(r, h, s, ln, i, j, v)) != HPLS_OK)
            return st;
    }
}

/* Entries "i j [value]", 1-based, any order: the whole file's. */
hpls_status hpls_mm_read_coordinate(hpls_mm_reader *r, const hpls_mm_header *h, hpls_mm_sink *s)
{
    hpls_int k;
    hpls_status st = hpls_mm_read_entries(r, h, 0, s, &k);
    if (st == HPLS_OK && k < h->entries)
        st = hpls_mm_ends_early(r->path, r->line, h, k);
    return st;
}

/* One value per line, column by column; symmetric storage holds the lower
 * triangle (skew: strictly lower). */
static hpls_status read_array(hpls_mm_reader *r, const hpls_mm_header *h, hpls_mm_sink *s)
{
    const hpls_int below = h->symmetry == HPLS_MM_SKEW; /* first row below the diagonal */
    hpls_int i = below, j = 0;
    for (hpls_int k = 0; k < h->entries; k++) {
        hpls_status st = entry_start(r, h, k);
        if (st != HPLS_OK)
            return st;
        long ln = r->line;
        hpls_real v = 0.0;
        if ((st = parse_value(r, ln, h->field, &v)) != HPLS_OK ||
            (st = entry_end(r, ln)) != HPLS_OK || (st = put_entry(r, h, s, ln, i, j, v)) != HPLS_OK)
            return st;
        if (++i == h->nrows) {
            j++;
            i = h->symmetry == HPLS_MM_GENERAL ? 0 : j + below;
        }
    }
    return file_end(r, h);
}

/* Fills a zeroed row-major nrows x ncols array from either format. */
hpls_status hpls_mm_read_into_dense(hpls_mm_reader *r, const hpls_mm_header *h, hpls_real *a)
{
    hpls_mm_sink s = {.dense = a, .ncols = h->ncols, .assign = h->array};
    return h->array ? read_array(r, h, &s) : hpls_mm_read_coordinate(r, h, &s);
}

hpls_status hpls_mm_is_array(const char *path, int *is_array)
{
    if (!path || !is_array)
        return hpls_fail(HPLS_ERR_ARG, "hpls_mm_is_array: NULL argument");
    hpls_mm_reader r;
    hpls_mm_header h;
    hpls_status st = hpls_mm_open(&r, path);
    if (st == HPLS_OK)
        st = read_banner(&r, &h);
    hpls_mm_close(&r);
    if (st == HPLS_OK)
        *is_array = h.array;
    return st;
}
