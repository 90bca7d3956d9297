/* SPDX-License-Identifier: BSD-3-Clause */
/* devhost.c: the device host layer (devhost.h): a device backend's state,
 * buffers and launches over its primitives (hpls_devtab), the reductions in
 * two stages, and the vector operations (hpls_dev_vops) and the methods' fused
 * kernels (family dev: kernels/bicgstab.h, hisa.h) every device backend runs.
 * Vectors are device buffers; every operation is a kernel of
 * kernels/device/vector.cl; a reduction is two launches (work-group partials,
 * then one group combines them in a fixed order: red_final) and one read of
 * its k results, which then pass through be->reduce. */
#include "kernels/device/devhost.h"
#include "kernels/bicgstab.h"
#include "kernels/hisa.h"

#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K_NAME(name, sig) #name,
#define K_SIG(name, sig) sig,
static const char *const kernel_names[] = {HPLS_DEVICE_KERNELS(K_NAME)};
static const char *const kernel_sigs[] = {HPLS_DEVICE_KERNELS(K_SIG)};

const char *hpls_dev_kernel_name(int k)
{
    return k >= 0 && k < HPLS_K_COUNT ? kernel_names[k] : "(no such kernel)";
}

/* ---- the backend's state -------------------------------------------------- */
/* $name in place of the backend's count (*out), a whole number of `what`
 * from 1 to most: for the first runs on a GPU, whose best counts nothing here
 * could measure (docs/gpu.md), and to run a GPU's layouts on a CPU device (tests) */
static hpls_status count_override(const char *name, long long most, const char *what,
                                  long long *out)
{
    const char *e = getenv(name);
    if (!e)
        return HPLS_OK;
    char *end;
    long long g = strtoll(e, &end, 10);
    if (end == e || *end || g < 1 || g > most)
        return hpls_fail(HPLS_ERR_OPTION, "%s=%s: a whole number of %s from 1 to %lld", name, e,
                         what, most);
    *out = g;
    return HPLS_OK;
}

static hpls_status overrides(hpls_dev *dev)
{
    long long sf = (long long)dev->syncfree_groups, red = dev->red_groups;
    long long lanes = (long long)dev->syncfree_lanes;
    hpls_status st = count_override("HPLS_SYNCFREE_GROUPS", 1ll << 24, "work-groups", &sf);
    if (st == HPLS_OK)
        st = count_override("HPLS_REDUCTION_GROUPS", HPLS_DEV_RED_MAX, "work-groups", &red);
    if (st == HPLS_OK)
        st = count_override("HPLS_SYNCFREE_LANES", HPLS_DEV_WG, "lanes", &lanes);
    dev->syncfree_groups = (size_t)sf;
    dev->red_groups = (int)red;
    dev->syncfree_lanes = (size_t)lanes;
    return st;
}

hpls_status hpls_dev_create(hpls_backend *be, const hpls_devtab *tab)
{
    hpls_dev *dev = hpls_calloc(1, sizeof *dev);
    if (!dev)
        return HPLS_ERR_NOMEM;
    dev->t = tab;
    dev->syncfree_groups = HPLS_DEV_SYNCFREE_GROUPS;
    dev->red_groups = HPLS_DEV_NGMAX;
    dev->syncfree_lanes = 1;
    be->impl = dev;
    be->v = &hpls_dev_vops;
    be->d = &hpls_dev_devops;
    hpls_status st = tab->init(be, dev);
    if (st == HPLS_OK)
        st = overrides(dev);
    if (st != HPLS_OK)
        hpls_dev_destroy(be);
    return st;
}

void hpls_dev_destroy(hpls_backend *be)
{
    hpls_dev *dev = be->impl;
    if (!dev)
        return;
    dev->t->release(be, dev->part);
    dev->t->release(be, dev->out);
    dev->t->fini(be, dev);
    hpls_free(dev);
    be->impl = NULL;
}

/* A primitive's failure (its message is the thread's last error) as be's
 * sticky error; returns 1 when st is one. */
static int failed(hpls_backend *be, hpls_status st)
{
    if (st == HPLS_OK)
        return 0;
    hpls_be_fail(be, st, "%s backend: %s", be->name, hpls_last_error());
    return 1;
}

hpls_status hpls_dev_fail(hpls_backend *be, hpls_status st, const char *fmt, ...)
{
    char why[256], what[256];
    snprintf(why, sizeof why, "%s", hpls_last_error()); /* hpls_fail overwrites it */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return hpls_fail(st, "%s backend: %s: %s", be->name, what, why);
}

/* ---- buffers ------------------------------------------------------------- */
hpls_status hpls_dev_alloc(hpls_backend *be, size_t bytes, hpls_dbuf **b)
{
    const hpls_devtab *t = hpls_dev_of(be)->t;
    size_t size = bytes > 0 ? bytes : sizeof(double);
    hpls_status st = t->alloc(be, size, b);
    if (st == HPLS_OK)
        st = t->zero(be, *b, 0, size);
    if (st != HPLS_OK) {
        t->release(be, *b);
        *b = NULL;
    }
    return st;
}

hpls_status hpls_dev_upload(hpls_backend *be, const void *h, size_t bytes, hpls_dbuf **b)
{
    if (bytes == 0)
        return hpls_dev_alloc(be, 0, b);
    const hpls_devtab *t = hpls_dev_of(be)->t;
    hpls_status st = t->alloc(be, bytes, b);
    if (st == HPLS_OK)
        st = t->write(be, *b, 0, h, bytes);
    if (st != HPLS_OK) {
        t->release(be, *b);
        *b = NULL;
    }
    return st;
}

void hpls_dev_free(hpls_backend *be, hpls_dbuf *b)
{
    if (b)
        hpls_dev_of(be)->t->release(be, b);
}

static atomic_long write_count;   /* writes since hpls_dev_write_fail_at */
static atomic_long write_fail_at; /* 0: none fails; k: the k-th */

void hpls_dev_write_fail_at(long k)
{
    atomic_store(&write_count, 0);
    atomic_store(&write_fail_at, k);
}

/* 1 when this write is the one a test asked to fail (be's error then) */
static int injected(hpls_backend *be)
{
    long k = atomic_load(&write_fail_at);
    if (atomic_fetch_add(&write_count, 1) + 1 != k)
        return 0;
    hpls_be_fail(be, HPLS_ERR_INTERNAL, "%s backend: device write %ld failed (injected)", be->name,
                 k);
    return 1;
}

void hpls_dev_write(hpls_backend *be, hpls_dbuf *b, size_t off, const void *h, size_t bytes)
{
    if (bytes > 0 && be->err == HPLS_OK && !injected(be))
        failed(be, hpls_dev_of(be)->t->write(be, b, off, h, bytes));
}

void hpls_dev_read(hpls_backend *be, const hpls_dbuf *b, size_t off, void *h, size_t bytes)
{
    if (bytes > 0 && be->err == HPLS_OK)
        failed(be, hpls_dev_of(be)->t->read(be, b, off, h, bytes));
}

void hpls_dev_copy(hpls_backend *be, const hpls_dbuf *src, size_t soff, hpls_dbuf *dst, size_t doff,
                   size_t bytes)
{
    if (bytes > 0 && be->err == HPLS_OK)
        failed(be, hpls_dev_of(be)->t->copy(be, src, soff, dst, doff, bytes));
}

void hpls_dev_zero(hpls_backend *be, hpls_dbuf *b, size_t off, size_t bytes)
{
    if (bytes > 0 && be->err == HPLS_OK && !injected(be))
        failed(be, hpls_dev_of(be)->t->zero(be, b, off, bytes));
}

void hpls_dev_sync(hpls_backend *be)
{
    if (be->err == HPLS_OK)
        failed(be, hpls_dev_of(be)->t->sync(be));
}

/* ---- launching ----------------------------------------------------------- */
void hpls_dev_launch(hpls_backend *be, int k, size_t groups, size_t local, const hpls_karg *a,
                     int na)
{
    if (be->err != HPLS_OK)
        return;
    const char *sig = k >= 0 && k < HPLS_K_COUNT ? kernel_sigs[k] : "";
    int ns = (int)strlen(sig);
    if (k < 0 || k >= HPLS_K_COUNT || na != ns) {
        hpls_be_fail(be, HPLS_ERR_INTERNAL,
                     "%s backend: kernel %s launched with %d arguments, kernels.h lists %d",
                     be->name, hpls_dev_kernel_name(k), na, ns);
        return;
    }
    for (int i = 0; i < na; i++)
        if (a[i].kind != sig[i]) {
            hpls_be_fail(be, HPLS_ERR_INTERNAL,
                         "%s backend: kernel %s: argument %d is of kind '%c', kernels.h says '%c'",
                         be->name, kernel_names[k], i, a[i].kind, sig[i]);
            return;
        }
    failed(be, hpls_dev_of(be)->t->launch(be, k, groups, local, a, na));
}

/* ---- sync-free launches ------------------------------------------------- */
static _Atomic unsigned long long spin_bound; /* 0: HPLS_DEV_SPINS */

void hpls_dev_spin_bound(unsigned long long spins)
{
    atomic_store(&spin_bound, spins);
}

hpls_status hpls_dev_ready_alloc(hpls_backend *be, hpls_int n, hpls_dready *R)
{
    R->n = n;
    R->epoch = 0;
    R->stale = 0;
    return hpls_dev_alloc(be, ((size_t)n + 3) * sizeof(unsigned long long), &R->flag);
}

void hpls_dev_ready_free(hpls_backend *be, hpls_dready *R)
{
    hpls_dev_free(be, R->flag);
    R->flag = NULL;
}

void hpls_dev_syncfree(hpls_backend *be, hpls_dready *R, int k, int serial, size_t lanes,
                       const hpls_karg *a, int na)
{
    size_t groups = serial ? 1 : hpls_dev_of(be)->syncfree_groups;
    enum { MAXARGS = 32 };
    hpls_karg all[MAXARGS];
    size_t rows = (size_t)R->n * sizeof(unsigned long long);
    unsigned long long bound = atomic_load(&spin_bound);
    unsigned long long tail[3] = {0, 0, bound ? bound : HPLS_DEV_SPINS}; /* ticket, stall, bound */
    if (R->n == 0 || be->err != HPLS_OK) /* not launched: the flags keep the epoch */
        return;
    if (na + 2 > MAXARGS) {
        hpls_be_fail(be, HPLS_ERR_INTERNAL, "%s backend: kernel %s: %d arguments", be->name,
                     hpls_dev_kernel_name(k), na);
        return;
    }
    if (R->stale) { /* rows a failed launch left behind would never reach the epoch */
        hpls_dev_zero(be, R->flag, 0, rows);
        R->epoch = 0;
    }
    for (int i = 0; i < na; i++)
        all[i] = a[i];
    all[na] = HPLS_KG(R->flag);
    all[na + 1] = HPLS_KU(++R->epoch);
    hpls_dev_write(be, R->flag, rows, tail, sizeof tail);
    hpls_dev_launch(be, k, groups, lanes, all, na + 2);
    hpls_dev_read(be, R->flag, rows + sizeof *tail, &tail[1], sizeof *tail);
    if (be->err == HPLS_OK && tail[1] != 0)
        hpls_be_fail(be, HPLS_ERR_INTERNAL,
                     "%s backend: kernel %s: row %llu never became ready (%llu spins, the "
                     "sync-free watchdog's bound): a device fault or a bug in hpls",
                     be->name, hpls_dev_kernel_name(k), tail[1] - 1, tail[2]);
    R->stale = be->err != HPLS_OK;
}

size_t hpls_dev_groups(hpls_int n)
{
    hpls_int g = (n + HPLS_DEV_WG - 1) / HPLS_DEV_WG;
    return g < 1 ? 1 : g > HPLS_DEV_GMAX ? HPLS_DEV_GMAX : (size_t)g;
}

int hpls_dev_rgroups(const hpls_backend *be, hpls_int n)
{
    hpls_int g = (n + HPLS_DEV_WG - 1) / HPLS_DEV_WG, most = hpls_dev_of(be)->red_groups;
    return g < 1 ? 1 : g > most ? (int)most : (int)g;
}

/* ---- reductions ---------------------------------------------------------- */
hpls_dbuf *hpls_dev_part(hpls_backend *be, int ncol)
{
    hpls_dev *dev = hpls_dev_of(be);
    if (be->err != HPLS_OK)
        return NULL;
    if (ncol <= dev->cap)
        return dev->part;
    int cap = ncol < 16 ? 16 : ncol;
    hpls_dbuf *part = NULL, *out = NULL;
    hpls_status st = dev->t->alloc(be, (size_t)dev->red_groups * cap * sizeof(double), &part);
    if (st == HPLS_OK)
        st = dev->t->alloc(be, (size_t)cap * sizeof(double), &out);
    if (failed(be, st)) {
        hpls_dev_free(be, part);
        return NULL;
    }
    hpls_dev_free(be, dev->part);
    hpls_dev_free(be, dev->out);
    dev->part = part;
    dev->out = out;
    dev->cap = cap;
    return part;
}

void hpls_dev_reduce_part(hpls_backend *be, int ng, int ncol, int op, double *h)
{
    hpls_dev *dev = hpls_dev_of(be);
    if (be->err == HPLS_OK && ncol > dev->cap)
        hpls_be_fail(be, HPLS_ERR_INTERNAL, "%s backend: %d reduction columns, room for %d",
                     be->name, ncol, dev->cap);
    HPLS_DEV_RUNL(be, HPLS_K_red_final, 1, HPLS_DEV_WG, HPLS_KI(ng), HPLS_KI(ncol), HPLS_KI(op),
                  HPLS_KG(dev->part), HPLS_KG(dev->out));
    hpls_dev_read(be, dev->out, 0, h, (size_t)ncol * sizeof *h);
    for (int c = 0; be->err != HPLS_OK && c < ncol; c++)
        h[c] = NAN;
}

/* m <= 3 dot products (a[i], b[i]) in one pass into columns col[i] of ncol */
static void dots(hpls_backend *be, hpls_int n, int m, const hpls_dvec *const *a,
                 const hpls_dvec *const *b, const int *col, int ncol)
{
    hpls_dbuf *A[3], *B[3];
    int c[3];
    for (int i = 0; i < 3; i++) { /* unused pairs repeat the first (not read) */
        A[i] = hpls_dev_vbuf(a[i < m ? i : 0]);
        B[i] = hpls_dev_vbuf(b[i < m ? i : 0]);
        c[i] = col[i < m ? i : 0];
    }
    HPLS_DEV_RUN(be, HPLS_K_dot_part, (size_t)hpls_dev_rgroups(be, n), HPLS_KL(n), HPLS_KI(m),
                 HPLS_KG(A[0]), HPLS_KG(B[0]), HPLS_KG(A[1]), HPLS_KG(B[1]), HPLS_KG(A[2]),
                 HPLS_KG(B[2]), HPLS_KG(hpls_dev_of(be)->part), HPLS_KI(ncol), HPLS_KI(c[0]),
                 HPLS_KI(c[1]), HPLS_KI(c[2]));
}

/* (x, y) unreduced: the library's dot where the backend has one, else ours */
static double dot_local(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y)
{
    const hpls_devlib *lib = hpls_dev_of(be)->lib;
    double s = NAN;
    int c = 0;
    if (lib && lib->dot) {
        if (be->err == HPLS_OK &&
            failed(be, lib->dot(be, n, hpls_dev_vbuf(x), hpls_dev_vbuf(y), &s)))
            s = NAN;
    } else if (hpls_dev_part(be, 1)) {
        dots(be, n, 1, &x, &y, &c, 1);
        hpls_dev_reduce_part(be, hpls_dev_rgroups(be, n), 1, HPLS_DEV_SUM, &s);
    }
    return s;
}

/* ---- memory ------------------------------------------------------------- */
static hpls_status v_alloc(hpls_backend *be, hpls_int n, hpls_dvec **out)
{
    *out = NULL;
    struct hpls_devvec *v = hpls_malloc(1, sizeof *v);
    if (!v)
        return HPLS_ERR_NOMEM;
    v->n = n;
    hpls_status st = hpls_dev_alloc(be, (size_t)(n > 0 ? n : 0) * sizeof(double), &v->m);
    if (st != HPLS_OK) {
        hpls_free(v);
        return hpls_dev_fail(be, st, "a vector of %lld values", (long long)n);
    }
    *out = (hpls_dvec *)v;
    return HPLS_OK;
}

static void v_release(hpls_backend *be, hpls_dvec *v)
{
    if (!v)
        return;
    hpls_dev_free(be, hpls_dev_vbuf(v));
    hpls_free(v);
}

static void v_upload(hpls_backend *be, hpls_int n, const hpls_real *h, hpls_dvec *v)
{
    hpls_dev_write(be, hpls_dev_vbuf(v), 0, h, (size_t)(n > 0 ? n : 0) * sizeof *h);
}

static void v_download(hpls_backend *be, hpls_int n, const hpls_dvec *v, hpls_real *h)
{
    hpls_dev_read(be, hpls_dev_vbuf(v), 0, h, (size_t)(n > 0 ? n : 0) * sizeof *h);
}

/* A device vector has no host array: a host kernel that asks is a method or
 * preconditioner not on the device (refused at setup; this is the guard). */
static hpls_real *v_host(hpls_backend *be, const hpls_dvec *v)
{
    hpls_be_fail(be, HPLS_ERR_UNSUPPORTED,
                 "%s backend: a host kernel asked for the host array of device vector %p", be->name,
                 (const void *)v);
    return NULL;
}

/* ---- element-wise operations ------------------------------------------- */
static void v_copy(hpls_backend *be, hpls_int n, const hpls_dvec *x, hpls_dvec *y)
{
    if (x != y)
        hpls_dev_copy(be, hpls_dev_vbuf(x), 0, hpls_dev_vbuf(y), 0,
                      (size_t)(n > 0 ? n : 0) * sizeof(double));
}

static void v_set(hpls_backend *be, hpls_int n, double a, hpls_dvec *y)
{
    HPLS_DEV_RUN(be, HPLS_K_v_set, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(a), HPLS_KV(y));
}

static void v_scale(hpls_backend *be, hpls_int n, double a, hpls_dvec *y)
{
    HPLS_DEV_RUN(be, HPLS_K_v_scale, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(a), HPLS_KV(y));
}

static void v_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, hpls_dvec *y)
{
    HPLS_DEV_RUN(be, HPLS_K_v_axpy, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(a), HPLS_KV(x),
                 HPLS_KV(y));
}

static void v_axpby(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, double b,
                    hpls_dvec *y)
{
    HPLS_DEV_RUN(be, HPLS_K_v_axpby, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(a), HPLS_KV(x),
                 HPLS_KD(b), HPLS_KV(y));
}

static void v_xpay(hpls_backend *be, hpls_int n, const hpls_dvec *x, double a, hpls_dvec *y)
{
    HPLS_DEV_RUN(be, HPLS_K_v_xpay, hpls_dev_groups(n), HPLS_KL(n), HPLS_KV(x), HPLS_KD(a),
                 HPLS_KV(y));
}

static void v_waxpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, const hpls_dvec *y,
                    hpls_dvec *w)
{
    HPLS_DEV_RUN(be, HPLS_K_v_waxpy, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(a), HPLS_KV(x),
                 HPLS_KV(y), HPLS_KV(w));
}

static void v_axpbypcz(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, double b,
                       const hpls_dvec *y, double c, hpls_dvec *z)
{
    HPLS_DEV_RUN(be, HPLS_K_v_axpbypcz, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(a), HPLS_KV(x),
                 HPLS_KD(b), HPLS_KV(y), HPLS_KD(c), HPLS_KV(z));
}

static void v_pmult(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y,
                    hpls_dvec *z)
{
    HPLS_DEV_RUN(be, HPLS_K_v_pmult, hpls_dev_groups(n), HPLS_KL(n), HPLS_KV(x), HPLS_KV(y),
                 HPLS_KV(z));
}

static void v_diag_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *d,
                        const hpls_dvec *x, hpls_dvec *y)
{
    HPLS_DEV_RUN(be, HPLS_K_v_diag_axpy, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(a), HPLS_KV(d),
                 HPLS_KV(x), HPLS_KV(y));
}

/* w = beta w + sum a[i] V[i]: a launch per vector, w rounded as the ref's loop */
static void v_maxpy(hpls_backend *be, hpls_int n, int k, const double *a, const hpls_dvec *const *V,
                    double beta, hpls_dvec *w)
{
    if (beta == 0.0)
        v_set(be, n, 0.0, w);
    else
        v_scale(be, n, beta, w);
    for (int j = 0; j < k; j++)
        v_axpy(be, n, a[j], V[j], w);
}

static void v_maxpy2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                     const double *a, double alpha, hpls_dvec *x, const double *b, double beta,
                     double gamma, hpls_dvec *y)
{
    for (int j = 0; j < k; j++)
        HPLS_DEV_RUN(be, HPLS_K_v_axpy2, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(a[j]),
                     HPLS_KD(b[j]), HPLS_KV(V[j]), HPLS_KV(x), HPLS_KV(y));
    HPLS_DEV_RUN(be, HPLS_K_v_maxpy2_end, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(alpha),
                 HPLS_KV(x), HPLS_KD(beta), HPLS_KD(gamma), HPLS_KV(y));
}

void hpls_dev_bicgstab_p(hpls_backend *be, hpls_int n, const hpls_dvec *r, double beta,
                         double omega, const hpls_dvec *v, hpls_dvec *p)
{
    HPLS_DEV_RUN(be, HPLS_K_v_bicgstab_p, hpls_dev_groups(n), HPLS_KL(n), HPLS_KV(r), HPLS_KD(beta),
                 HPLS_KD(omega), HPLS_KV(v), HPLS_KV(p));
}

/* ---- reductions --------------------------------------------------------- */
static double v_dot(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y)
{
    double s = dot_local(be, n, x, y);
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return s;
}

/* ||x||: sqrt((x, x)) unless the sum under- or overflowed, then the ref
 * backend's scaled sum (max |x_i| first) */
static double v_nrm2(hpls_backend *be, hpls_int n, const hpls_dvec *x)
{
    double ss = v_dot(be, n, x, x);
    if (be->err != HPLS_OK)
        return NAN;
    if (isfinite(ss) && ss > 1e-280 && ss < 1e280)
        return sqrt(ss);
    int ng = hpls_dev_rgroups(be, n);
    double amax = NAN, s = NAN;
    hpls_dbuf *part = hpls_dev_part(be, 1);
    HPLS_DEV_RUN(be, HPLS_K_amax_part, (size_t)ng, HPLS_KL(n), HPLS_KV(x), HPLS_KG(part));
    hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_MAX, &amax);
    hpls_be_reduce(be, &amax, 1, HPLS_RED_MAX);
    if (amax == 0.0 || !isfinite(amax))
        return amax;
    HPLS_DEV_RUN(be, HPLS_K_sscaled_part, (size_t)ng, HPLS_KL(n), HPLS_KD(amax), HPLS_KV(x),
                 HPLS_KG(part));
    hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_SUM, &s);
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return amax * sqrt(s);
}

static void v_mdot(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                   const hpls_dvec *w, double *h)
{
    const hpls_devlib *lib = hpls_dev_of(be)->lib;
    const hpls_dvec *W[3] = {w, w, w};
    if (lib && lib->dot) {
        for (int j = 0; j < k; j++)
            h[j] = dot_local(be, n, V[j], w);
    } else if (!hpls_dev_part(be, k)) {
        for (int j = 0; j < k; j++)
            h[j] = NAN;
    } else {
        for (int j = 0; j < k; j += 3) { /* three basis vectors a pass over w */
            int col[3] = {j, j + 1, j + 2};
            dots(be, n, k - j < 3 ? k - j : 3, V + j, W, col, k);
        }
        if (k > 0)
            hpls_dev_reduce_part(be, hpls_dev_rgroups(be, n), k, HPLS_DEV_SUM, h);
    }
    hpls_be_reduce(be, h, k, HPLS_RED_SUM);
}

static void v_mdot2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                    const hpls_dvec *x, const hpls_dvec *y, double *h)
{
    int ncol = 2 * k + 3;
    if (!hpls_dev_part(be, ncol)) {
        for (int j = 0; j < ncol; j++)
            h[j] = NAN;
        return;
    }
    for (int j = 0; j < k; j++) { /* (V_j, x) and (V_j, y): one pass over V_j */
        const hpls_dvec *a[2] = {V[j], V[j]}, *b[2] = {x, y};
        int col[2] = {j, k + j};
        dots(be, n, 2, a, b, col, ncol);
    }
    const hpls_dvec *a[3] = {x, x, y}, *b[3] = {x, y, y};
    int col[3] = {2 * k, 2 * k + 1, 2 * k + 2};
    dots(be, n, 3, a, b, col, ncol);
    hpls_dev_reduce_part(be, hpls_dev_rgroups(be, n), ncol, HPLS_DEV_SUM, h);
    hpls_be_reduce(be, h, ncol, HPLS_RED_SUM);
}

void hpls_dev_bicgstab_dot3(hpls_backend *be, hpls_int n, const hpls_dvec *t, const hpls_dvec *s,
                            double *tt, double *ts, double *ss)
{
    double v[3] = {NAN, NAN, NAN};
    if (hpls_dev_part(be, 3)) {
        const hpls_dvec *a[3] = {t, t, s}, *b[3] = {t, s, s};
        int col[3] = {0, 1, 2};
        dots(be, n, 3, a, b, col, 3);
        hpls_dev_reduce_part(be, hpls_dev_rgroups(be, n), 3, HPLS_DEV_SUM, v);
    }
    hpls_be_reduce(be, v, 3, HPLS_RED_SUM);
    *tt = v[0];
    *ts = v[1];
    *ss = v[2];
}

void hpls_dev_bicgstab_xr(hpls_backend *be, hpls_int n, double alpha, const hpls_dvec *phat,
                          double omega, const hpls_dvec *shat, const hpls_dvec *s,
                          const hpls_dvec *t, const hpls_dvec *rhat, hpls_dvec *x, hpls_dvec *r,
                          double *rnorm, double *rhat_r)
{
    HPLS_DEV_RUN(be, HPLS_K_v_bicgstab_xr, hpls_dev_groups(n), HPLS_KL(n), HPLS_KD(alpha),
                 HPLS_KV(phat), HPLS_KD(omega), HPLS_KV(shat), HPLS_KV(s), HPLS_KV(t), HPLS_KV(x),
                 HPLS_KV(r));
    double v[2] = {NAN, NAN};
    if (hpls_dev_part(be, 2)) {
        const hpls_dvec *a[2] = {r, rhat}, *b[2] = {r, r};
        int col[2] = {0, 1};
        dots(be, n, 2, a, b, col, 2);
        hpls_dev_reduce_part(be, hpls_dev_rgroups(be, n), 2, HPLS_DEV_SUM, v);
    }
    hpls_be_reduce(be, v, 2, HPLS_RED_SUM);
    *rnorm = hpls_be_norm(be, n, v[0], r);
    *rhat_r = v[1];
}

double hpls_dev_hisa_update(hpls_backend *be, hpls_int n, const hpls_dvec *b, const hpls_dvec *y,
                            const hpls_dvec *ynew, hpls_dvec *bp)
{
    double s = NAN;
    hpls_dbuf *part = hpls_dev_part(be, 1);
    if (part) {
        int ng = hpls_dev_rgroups(be, n);
        HPLS_DEV_RUN(be, HPLS_K_hisa_update_part, (size_t)ng, HPLS_KL(n), HPLS_KV(b), HPLS_KV(y),
                     HPLS_KV(ynew), HPLS_KV(bp), HPLS_KG(part));
        hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_SUM, &s);
    }
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return sqrt(s);
}

static hpls_int v_finite(hpls_backend *be, hpls_int n, const hpls_dvec *x, double *bad_value)
{
    double first = NAN;
    hpls_dbuf *part = hpls_dev_part(be, 1);
    if (part) {
        int ng = hpls_dev_rgroups(be, n);
        HPLS_DEV_RUN(be, HPLS_K_finite_part, (size_t)ng, HPLS_KL(n), HPLS_KV(x), HPLS_KG(part));
        hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_MIN, &first);
    }
    if (be->err != HPLS_OK || !(first < (double)n))
        return -1;
    hpls_int i = (hpls_int)first;
    hpls_dev_read(be, hpls_dev_vbuf(x), (size_t)i * sizeof(double), bad_value, sizeof(double));
    return be->err == HPLS_OK ? i : -1;
}

const hpls_vops hpls_dev_vops = HPLS_VOPS_OF(v_, DEVICE);
