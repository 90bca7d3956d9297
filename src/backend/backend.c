/* SPDX-License-Identifier: BSD-3-Clause */
/* backend.c: creating a backend by name, its sticky error, and the operations
 * every backend shares (norm from a sum of squares, attach/detach). */
#include "backend/backend.h"
#include "kernels/device/devhost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the backends, by name --------------------------------------------------
 * Each kind fills in *be and starts it (make) and frees what make started
 * (fini); its index is its place in HPLS_BACKEND_NAMES (the backend option). */
static hpls_status cpu_make(hpls_backend *be, int nthreads)
{
    *be = (hpls_backend){.name = "cpu",
                         .v = &hpls_cpu_vops,
                         .k = &hpls_cpu_kernels,
                         .nthreads = nthreads > 0 ? nthreads : hpls_default_threads(),
                         .host_arrays = 1};
    if (be->nthreads > HPLS_MAX_THREADS)
        be->nthreads = HPLS_MAX_THREADS;
    return hpls_cpu_init(be);
}

static hpls_status ref_make(hpls_backend *be, int nthreads)
{
    (void)nthreads; /* the sequential oracle */
    *be = (hpls_backend){.name = "ref", .v = &hpls_ref_vops, .k = &hpls_ref_kernels, .nthreads = 1};
    return hpls_ref_init(be);
}

/* host kernels (be->k) only ever see host arrays */
static hpls_status opencl_make(hpls_backend *be, int nthreads)
{
    (void)nthreads;
#ifdef HPLS_HAVE_OPENCL
    *be = (hpls_backend){.name = "opencl", .k = &hpls_cpu_kernels, .nthreads = 1};
    return hpls_dev_create(be, &hpls_opencl_tab);
#else
    (void)be;
    return hpls_fail(HPLS_ERR_NOT_COMPILED, "backend opencl is not built into this library "
                                            "(cmake -DHPLS_OPENCL=ON, with OpenCL headers and "
                                            "loader)");
#endif
}

/* the device layer on the module's primitives (backend/cuda_loader.c) */
static hpls_status cuda_make(hpls_backend *be, int nthreads)
{
    (void)nthreads;
    *be = (hpls_backend){.name = "cuda", .k = &hpls_cpu_kernels, .nthreads = 1};
    return hpls_cuda_init(be);
}

static const struct backend_kind {
    const char *name;
    hpls_status (*make)(hpls_backend *be, int nthreads);
    void (*fini)(hpls_backend *be);
} kinds[] = {
    [HPLS_BACKEND_CPU] = {"cpu", cpu_make, hpls_cpu_fini},
    [HPLS_BACKEND_REF] = {"ref", ref_make, hpls_ref_fini},
    [HPLS_BACKEND_OPENCL] = {"opencl", opencl_make, hpls_dev_destroy},
    [HPLS_BACKEND_CUDA] = {"cuda", cuda_make, hpls_dev_destroy},
};
_Static_assert(sizeof kinds / sizeof *kinds == HPLS_BACKEND_COUNT, "a backend kind is missing");

const char *hpls_backend_kind_name(int which)
{
    return which >= 0 && which < HPLS_BACKEND_COUNT ? kinds[which].name : NULL;
}

hpls_status hpls_backend_create(int which, int nthreads, hpls_backend **out)
{
    *out = NULL;
    if (which < 0 || which >= HPLS_BACKEND_COUNT)
        return hpls_fail(HPLS_ERR_ARG, "backend %d: not one of %s", which, HPLS_BACKEND_NAMES);
    hpls_backend *be = hpls_calloc(1, sizeof *be);
    if (!be)
        return HPLS_ERR_NOMEM;
    hpls_status st = kinds[which].make(be, nthreads);
    if (st != HPLS_OK) { /* make cleaned up after itself */
        hpls_free(be);
        return st;
    }
    be->fini = kinds[which].fini;
    hpls_k_llc_bytes(); /* read once here, before any of the backend's parallel regions */
    *out = be;
    return HPLS_OK;
}

void hpls_backend_destroy(hpls_backend *be)
{
    if (!be)
        return;
    if (be->reduce_free)
        be->reduce_free(be->reduce_ctx);
    be->fini(be);
    hpls_free(be);
}

hpls_status hpls_backend_devices(FILE *out)
{
#ifdef HPLS_HAVE_OPENCL
    hpls_opencl_tab.devices(out);
#else
    fprintf(out, "opencl: not built into this library (cmake -DHPLS_OPENCL=ON with OpenCL "
                 "headers and loader: scripts/deps.sh --opencl)\n");
#endif
    return hpls_cuda_devices(out);
}

hpls_status hpls_be_fail(hpls_backend *be, hpls_status st, const char *fmt, ...)
{
    if (be->err == HPLS_OK) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(be->msg, sizeof be->msg, fmt, ap);
        va_end(ap);
        be->err = st;
    }
    return st;
}

void hpls_be_clear(hpls_backend *be)
{
    be->err = HPLS_OK;
    be->msg[0] = '\0';
}

/* prefetch=auto: every variant but the default (itself one of them) is timed
 * once, in turn; then, for PF_ROUNDS - 1 more rounds, those within PF_KEEP of
 * the fastest are timed again (a disturbance or a cold first product then
 * hits one round, not a choice), each keeping its fastest time.  A variant
 * far behind (no prefetch of gas's gathers: 3-4x) costs one product, not
 * PF_ROUNDS: 6 to 12 products in all, in the first iterations of a solve. */
#define PF_FIRST HPLS_PF_NONE
#define PF_ROUNDS 2
#define PF_KEEP 1.25

static const char *const pf_names[HPLS_PF_COUNT] = {
    "default", "none", "rows-l3", "rows+x-l3", "rows-l2", "rows+x-l2", "rows+x-nta"};

void hpls_be_set_prefetch(hpls_backend *be, int pf)
{
    be->pf_auto = pf >= HPLS_PF_COUNT;
    be->pf = be->pf_auto ? HPLS_PF_DEFAULT : pf;
    be->pf_timed = be->pf_auto ? 0 : -1;
    be->pf_round = 0;
    be->pf_next = PF_FIRST;
}

/* The fastest candidate timed so far. */
static int pf_fastest(const hpls_backend *be)
{
    int best = PF_FIRST;
    for (int c = PF_FIRST + 1; c < HPLS_PF_COUNT; c++)
        if (be->pf_best[c] < be->pf_best[best])
            best = c;
    return best;
}

/* The candidate after v: the next one of the first round; in a later round
 * the next within PF_KEEP of the fastest; HPLS_PF_COUNT when the rounds are
 * over or only the fastest is left to time again. */
static int pf_after(hpls_backend *be, int v)
{
    double keep = PF_KEEP * be->pf_best[pf_fastest(be)];
    for (int c = v + 1; c < HPLS_PF_COUNT; c++)
        if (be->pf_round == 0 || be->pf_best[c] <= keep)
            return c;
    int kept = 0, first = HPLS_PF_COUNT;
    for (int c = HPLS_PF_COUNT - 1; c >= PF_FIRST; c--)
        if (be->pf_best[c] <= keep) {
            kept++;
            first = c;
        }
    return ++be->pf_round < PF_ROUNDS && kept > 1 ? first : HPLS_PF_COUNT;
}

void hpls_be_spmv(hpls_backend *be, const hpls_csr *A, const hpls_real *x, hpls_real *y)
{
    if (be->pf_timed < 0) {
        be->k->spmv(be->nthreads, be->pf, A, x, y);
        return;
    }
    int v = be->pf_next;
    double t0 = hpls_wtime();
    be->k->spmv(be->nthreads, v, A, x, y);
    double t = hpls_wtime() - t0;
    if (be->pf_round == 0 || t < be->pf_best[v])
        be->pf_best[v] = t;
    be->pf_timed++;
    be->pf_next = pf_after(be, v);
    if (be->pf_next == HPLS_PF_COUNT) { /* chosen, for good */
        be->pf = pf_fastest(be);
        be->pf_timed = -1;
    }
}

const char *hpls_be_pf_name(int pf)
{
    return pf >= 0 && pf < HPLS_PF_COUNT ? pf_names[pf] : "auto";
}

const char *hpls_be_prefetch(const hpls_backend *be, char *buf, size_t len)
{
    if (!be->pf_auto)
        snprintf(buf, len, "%s", pf_names[be->pf]);
    else if (be->pf_timed >= 0)
        snprintf(buf, len, "auto: measuring (%d products timed)", be->pf_timed);
    else
        snprintf(buf, len, "auto: %s", pf_names[be->pf]);
    return buf;
}

double hpls_be_norm(hpls_backend *be, hpls_int n, double ss, const hpls_dvec *r)
{
    if (isfinite(ss) && ss > 1e-280 && ss < 1e280)
        return sqrt(ss);
    return hpls_v_nrm2(be, n, r);
}

hpls_status hpls_be_attach(hpls_backend *be, hpls_int n, hpls_real *h, int copy, hpls_dvec **v)
{
    if (be->host_arrays) {
        *v = (hpls_dvec *)h;
        return HPLS_OK;
    }
    hpls_status st = be->v->alloc(be, n, v);
    if (st == HPLS_OK && copy)
        be->v->upload(be, n, h, *v);
    return st;
}

void hpls_be_detach(hpls_backend *be, hpls_int n, hpls_dvec *v, hpls_real *h, int copy)
{
    if (be->host_arrays || !v)
        return;
    if (copy)
        be->v->download(be, n, v, h);
    be->v->release(be, v);
}

hpls_status hpls_be_vector(hpls_backend *be, hpls_int n, const hpls_real *h, hpls_dvec **v)
{
    hpls_status st = be->v->alloc(be, n, v);
    if (st == HPLS_OK)
        be->v->upload(be, n, h, *v);
    return st;
}
