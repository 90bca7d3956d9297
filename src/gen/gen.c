/* SPDX-License-Identifier: BSD-3-Clause */
/* gen.c: the generator registry, spec parsing ("name:key=value,..."), the parallel
 * CSR and dense builders, and the help text built from the option tables. */
#include "gen/gen.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

static const gen_def *const generators[] = {&gen_gas,        &gen_poisson2d, &gen_poisson3d,
                                            &gen_convdiff3d, &gen_dense_dd,  &gen_tridiag,
                                            &gen_random};
#define NGEN ((int)(sizeof generators / sizeof generators[0]))
#define VALUE_MAX 64 /* longest value text accepted */

/* The accepted values of o as text: "0 <= k <= 64", "q > 0", "random|toeplitz"
 * (options are bounded below, or not at all).
 * The help and the error messages both use it, so they cannot disagree. */
static void range_text(const gen_opt *o, char *buf, size_t len)
{
    if (o->words)
        snprintf(buf, len, "%s", o->words);
    else if (isinf(o->lo) && isinf(o->hi))
        snprintf(buf, len, "any number");
    else if (isinf(o->hi))
        snprintf(buf, len, "%s %s %.15g", o->key, o->lo_open ? ">" : ">=", o->lo);
    else
        snprintf(buf, len, "%.15g %s %s <= %.15g", o->lo, o->lo_open ? "<" : "<=", o->key, o->hi);
}

/* Index of the option named by the len characters at key, or -1. */
static int find_key(const gen_def *def, const char *key, size_t len)
{
    for (int j = 0; def->opts[j].key; j++)
        if (strlen(def->opts[j].key) == len && strncmp(def->opts[j].key, key, len) == 0)
            return j;
    return -1;
}

static void list_keys(const gen_def *def, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int j = 0; def->opts[j].key; j++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", j ? ", " : "", def->opts[j].key);
    }
}

/* Reads the value text of option j into *v (a word option stores the word's index). */
static hpls_status parse_value(const gen_def *def, int j, const char *text, double *v)
{
    const gen_opt *o = &def->opts[j];
    char range[128];
    range_text(o, range, sizeof range);
    if (o->words) {
        const char *w = o->words;
        for (int idx = 0;; idx++) {
            size_t wl = strcspn(w, "|");
            if (wl == strlen(text) && strncmp(w, text, wl) == 0) {
                *v = idx;
                return HPLS_OK;
            }
            if (w[wl] == '\0')
                return hpls_fail(HPLS_ERR_OPTION, "gen %s: %s=\"%s\" is not one of %s", def->name,
                                 o->key, text, range);
            w += wl + 1;
        }
    }
    char *end;
    double x = strtod(text, &end);
    /* strtod would skip leading blanks and accept "nan" and "inf": refuse them */
    if (end == text || *end != '\0' || text[0] == ' ' || !isfinite(x))
        return hpls_fail(HPLS_ERR_OPTION, "gen %s: %s=\"%s\" is not a number", def->name, o->key,
                         text);
    if (o->integer && x != floor(x))
        return hpls_fail(HPLS_ERR_OPTION, "gen %s: %s=%s is not an integer", def->name, o->key,
                         text);
    if (x < o->lo || (o->lo_open && x == o->lo) || x > o->hi)
        return hpls_fail(HPLS_ERR_OPTION, "gen %s: %s=%s is out of range (%s)", def->name, o->key,
                         text, range);
    *v = x;
    return HPLS_OK;
}

/* Parses one "key=value" item of len characters. */
static hpls_status parse_item(const gen_def *def, const char *item, size_t len, gen_matrix *g)
{
    const char *eq = memchr(item, '=', len);
    if (!eq)
        return hpls_fail(HPLS_ERR_OPTION, "gen %s: \"%.*s\" is not key=value", def->name, (int)len,
                         item);
    int j = find_key(def, item, (size_t)(eq - item));
    if (j < 0) {
        char keys[128];
        list_keys(def, keys, sizeof keys);
        return hpls_fail(HPLS_ERR_OPTION, "gen %s: unknown key \"%.*s\" (keys: %s)", def->name,
                         (int)(eq - item), item, keys);
    }
    if (g->given & (1u << j))
        return hpls_fail(HPLS_ERR_OPTION, "gen %s: key \"%s\" given twice", def->name,
                         def->opts[j].key);
    size_t vlen = len - (size_t)(eq - item) - 1;
    char text[VALUE_MAX];
    if (vlen >= sizeof text)
        return hpls_fail(HPLS_ERR_OPTION, "gen %s: value of %s is longer than %d characters",
                         def->name, def->opts[j].key, VALUE_MAX - 1);
    memcpy(text, eq + 1, vlen);
    text[vlen] = '\0';
    g->given |= 1u << j;
    return parse_value(def, j, text, &g->opt[j]);
}

/* Parses spec into g (options, then defaults for the rest) and runs the
 * generator's setup. */
static hpls_status prepare(const char *spec, gen_matrix *g)
{
    size_t nlen = strcspn(spec, ":");
    const gen_def *def = NULL;
    for (int d = 0; d < NGEN; d++)
        if (strlen(generators[d]->name) == nlen && strncmp(generators[d]->name, spec, nlen) == 0)
            def = generators[d];
    if (!def) {
        char names[128] = "";
        for (int d = 0; d < NGEN; d++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", d ? ", " : "", generators[d]->name);
        }
        return hpls_fail(HPLS_ERR_OPTION, "gen: unknown generator \"%.*s\" (generators: %s)",
                         (int)nlen, spec, names);
    }
    memset(g, 0, sizeof *g);
    g->name = def->name;
    const char *p = spec + nlen;
    if (*p == ':') {
        for (p++;; p++) {
            size_t ilen = strcspn(p, ",");
            hpls_status st = parse_item(def, p, ilen, g);
            if (st != HPLS_OK)
                return st;
            p += ilen;
            if (*p != ',')
                break;
        }
    }
    for (int j = 0; def->opts[j].key; j++) {
        if (g->given & (1u << j))
            continue;
        const char *d = def->opts[j].def;
        int from = find_key(def, d, strlen(d));
        if (from >= 0) {
            g->opt[j] = g->opt[from]; /* "ny=nx": the table lists nx first */
        } else {
            hpls_status st = parse_value(def, j, d, &g->opt[j]);
            if (st != HPLS_OK)
                return st;
        }
    }
    return def->setup(g);
}

hpls_status gen_reject_given(const gen_matrix *g, const gen_def *def, int j, const char *why)
{
    if (g->given & (1u << j))
        return hpls_fail(HPLS_ERR_OPTION, "gen %s: key \"%s\" does not apply %s", def->name,
                         def->opts[j].key, why);
    return HPLS_OK;
}

/* The right-hand side entry of a generated row. */
static hpls_real rhs_entry(const gen_matrix *g, const hpls_real *val, hpls_int len)
{
    if (g->rhs_ones)
        return 1.0;
    double s = 0.0; /* column order: the same sum as the reference SpMV of A*1 */
    for (hpls_int k = 0; k < len; k++)
        s += val[k];
    return s;
}

static hpls_status build_csr(const gen_matrix *g, hpls_csr **A, hpls_vec **b)
{
    hpls_int n = g->n, nnz = 0;
#pragma omp parallel for schedule(static) reduction(+ : nnz)
    for (hpls_int i = 0; i < n; i++)
        nnz += g->row_len(g, i);
    hpls_csr *M = NULL;
    hpls_vec *v = NULL;
    hpls_status st = hpls_csr_create(n, n, nnz, &M);
    if (st == HPLS_OK && b)
        st = hpls_vec_create(n, &v);
    if (st != HPLS_OK)
        goto free_all;
    for (hpls_int i = 0; i < n; i++)
        M->rowptr[i + 1] = M->rowptr[i] + g->row_len(g, i);
        /* rows are of nearly equal length in every generator: a static split by rows
         * balances the work */
#pragma omp parallel for schedule(static)
    for (hpls_int i = 0; i < n; i++) {
        hpls_int p = M->rowptr[i];
        g->row(g, i, M->colind + p, M->val + p);
        if (v)
            v->data[i] = rhs_entry(g, M->val + p, M->rowptr[i + 1] - p);
    }
    *A = M;
    if (b)
        *b = v;
    return HPLS_OK;
free_all:
    hpls_csr_destroy(M);
    hpls_vec_destroy(v);
    return st;
}

static hpls_status build_dense(const gen_matrix *g, hpls_dense **A, hpls_vec **b)
{
    hpls_int n = g->n, maxlen = 0;
    if (n > GEN_DENSE_MAX)
        return hpls_fail(HPLS_ERR_OPTION,
                         "gen %s: %lld rows are too many for a dense matrix (at most %d)", g->name,
                         (long long)n, GEN_DENSE_MAX);
#pragma omp parallel for schedule(static) reduction(max : maxlen)
    for (hpls_int i = 0; i < n; i++)
        maxlen = g->row_len(g, i) > maxlen ? g->row_len(g, i) : maxlen;
    int p = omp_get_max_threads();
    hpls_dense *M = NULL;
    hpls_vec *v = NULL;
    /* one row of scratch per thread: the rows come compressed */
    hpls_idx *col = hpls_malloc(p * maxlen, sizeof *col);
    hpls_real *val = hpls_malloc(p * maxlen, sizeof *val);
    hpls_status st = col && val ? HPLS_OK : HPLS_ERR_NOMEM;
    if (st == HPLS_OK)
        st = hpls_dense_create(n, n, &M);
    if (st == HPLS_OK && b)
        st = hpls_vec_create(n, &v);
    if (st != HPLS_OK)
        goto free_all;
#pragma omp parallel num_threads(p)
    {
        hpls_idx *c = col + (hpls_int)omp_get_thread_num() * maxlen;
        hpls_real *w = val + (hpls_int)omp_get_thread_num() * maxlen;
#pragma omp for schedule(static)
        for (hpls_int i = 0; i < n; i++) {
            hpls_int len = g->row_len(g, i);
            g->row(g, i, c, w);
            for (hpls_int k = 0; k < len; k++)
                M->data[i * n + c[k]] = w[k];
            if (v)
                v->data[i] = rhs_entry(g, w, len);
        }
    }
    hpls_free(col);
    hpls_free(val);
    *A = M;
    if (b)
        *b = v;
    return HPLS_OK;
free_all:
    hpls_free(col);
    hpls_free(val);
    hpls_dense_destroy(M);
    hpls_vec_destroy(v);
    return st;
}

hpls_status hpls_gen_csr(const char *spec, hpls_csr **A, hpls_vec **b)
{
    if (!spec || !A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_gen_csr: NULL argument");
    *A = NULL;
    if (b)
        *b = NULL;
    gen_matrix g;
    hpls_status st = prepare(spec, &g);
    if (st != HPLS_OK)
        return st;
    return build_csr(&g, A, b);
}

hpls_status hpls_gen_dense(const char *spec, hpls_dense **A, hpls_vec **b)
{
    if (!spec || !A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_gen_dense: NULL argument");
    *A = NULL;
    if (b)
        *b = NULL;
    gen_matrix g;
    hpls_status st = prepare(spec, &g);
    if (st != HPLS_OK)
        return st;
    return build_dense(&g, A, b);
}

hpls_status hpls_gen_rows(const char *spec, hpls_int lo, hpls_int hi, hpls_int *n,
                          hpls_int **rowptr, hpls_int **col, hpls_real **val, hpls_real **b)
{
    gen_matrix g;
    hpls_status st = prepare(spec, &g);
    if (st != HPLS_OK)
        return st;
    *n = g.n;
    if (hi < 0)
        return HPLS_OK;
    if (lo < 0 || hi > g.n || lo > hi)
        return hpls_fail(HPLS_ERR_ARG, "gen %s: rows %lld .. %lld of %lld", g.name, (long long)lo,
                         (long long)hi, (long long)g.n);
    hpls_int m = hi - lo, maxlen = 0;
    hpls_int *rp = hpls_malloc(m + 1, sizeof *rp);
    if (!rp)
        return HPLS_ERR_NOMEM;
    rp[0] = 0;
    for (hpls_int i = 0; i < m; i++) {
        hpls_int len = g.row_len(&g, lo + i);
        rp[i + 1] = rp[i] + len;
        maxlen = len > maxlen ? len : maxlen;
    }
    hpls_int *c = hpls_malloc(rp[m], sizeof *c);
    hpls_real *v = hpls_malloc(rp[m], sizeof *v), *bv = hpls_malloc(m, sizeof *bv);
    hpls_idx *rowcol = hpls_malloc(maxlen, sizeof *rowcol);
    if (!c || !v || !bv || !rowcol) {
        hpls_free(rp);
        hpls_free(c);
        hpls_free(v);
        hpls_free(bv);
        hpls_free(rowcol);
        return HPLS_ERR_NOMEM;
    }
    for (hpls_int i = 0; i < m; i++) { /* 32-bit columns of the row, widened */
        g.row(&g, lo + i, rowcol, v + rp[i]);
        for (hpls_int k = 0; k < rp[i + 1] - rp[i]; k++)
            c[rp[i] + k] = rowcol[k];
        bv[i] = rhs_entry(&g, v + rp[i], rp[i + 1] - rp[i]);
    }
    hpls_free(rowcol);
    *rowptr = rp;
    *col = c;
    *val = v;
    *b = bv;
    return HPLS_OK;
}

static char help_text[8192];
static once_flag help_once = ONCE_FLAG_INIT;

static void help_append(const char *fmt, ...) HPLS_PRINTF(1, 2);
static void help_append(const char *fmt, ...)
{
    size_t used = strlen(help_text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(help_text + used, sizeof help_text - used, fmt, ap);
    va_end(ap);
}

/* One line per generator (its options with defaults, what it makes), then one
 * line per option (meaning and accepted values). */
static void build_help(void)
{
    for (int d = 0; d < NGEN; d++) {
        const gen_def *def = generators[d];
        help_append("%-11s", def->name);
        for (int j = 0; def->opts[j].key; j++)
            help_append("%s%s=%s", j ? " " : "", def->opts[j].key, def->opts[j].def);
        help_append("   %s\n", def->about);
        for (int j = 0; def->opts[j].key; j++) {
            char range[128];
            range_text(&def->opts[j], range, sizeof range);
            help_append("    %-6s %s (%s)\n", def->opts[j].key, def->opts[j].help, range);
        }
    }
}

const char *hpls_gen_help(void)
{
    call_once(&help_once, build_help);
    return help_text;
}
