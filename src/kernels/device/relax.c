/* SPDX-License-Identifier: BSD-3-Clause */
/* relax.c (device): the relaxation sweeps of gs, sor, ssor and precond ssor
 * on a device backend (kernels/device/relax.cl), through the host layer
 * (devhost.h): the dev family's relaxation kernels (kernels/relax.h).  Setup uploads A's diagonal
 * positions and, for the level-set schedule, the level sets of A's strictly lower part (forward
 * sweeps) and strictly upper part (backward), built once on the host (kernels/cpu/levels.c); the
 * sweeps read the caller's device copy of A.  A sweep is, by strategy (HPLS_TRI_*, backend.h): a
 * launch per level set; one launch of the device's sync-free work-groups of one item taking rows
 * from an atomic ticket (syncfree); or that launch with one group (serial).  Every strategy gives
 * the host's bits (relax.cl).  auto: serial when the level sets hold fewer than RELAX_AUTO_ROWS
 * rows on average, else the device's choice for the dilu sweeps (levels on a CPU device, syncfree
 * on a GPU). */
#include "kernels/relax.h"
#include "kernels/cpu/sptrsv.h"
#include "kernels/device/devhost.h"

#include <math.h>

/* trisolve=auto: fewer rows than this a level on average (a warp's worth) and
 * a launch per level costs more than its rows' work, while the sync-free
 * rows would wait on each other down the chain (gas: one row a level): the
 * serial sweep then, one launch. */
enum { RELAX_AUTO_ROWS = 32 };

/* A sweep's kind (relax.cl): SOR forward and backward (gs: omega 1), SSOR's
 * (D + wL) y = r and (D + wU) z = D y. */
enum { RELAX_SOR_FWD, RELAX_SOR_BWD, RELAX_SSOR_FWD, RELAX_SSOR_BWD };

struct hpls_drelax {
    hpls_dbuf *dp;             /* A's diagonal positions (64-bit) */
    hpls_dbuf *order[2];       /* levels: L's (0) and U's (1) rows sorted by level */
    hpls_int *off[2], nlev[2]; /* their nlev + 1 level offsets, on the host */
    hpls_dready ready;         /* syncfree, serial */
    hpls_int n;
    int strategy;
};

void hpls_dev_relax_release(hpls_backend *be, hpls_drelax *R)
{
    if (!R)
        return;
    hpls_dev_free(be, R->dp);
    hpls_dev_ready_free(be, &R->ready);
    for (int u = 0; u < 2; u++) {
        hpls_dev_free(be, R->order[u]);
        hpls_free(R->off[u]);
    }
    hpls_free(R);
}

/* The level sets of A's strictly lower (upper = 0) or upper part, uploaded. */
static hpls_status upload_levels(hpls_backend *be, hpls_drelax *R, const hpls_csr *A,
                                 const hpls_int *lowend, const hpls_int *upbeg, int upper)
{
    hpls_tri T = hpls_tri_of(A, upper, lowend, upbeg, NULL);
    hpls_levels L = {0};
    hpls_status st = hpls_levels_build(&T, 1, &L);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, L.order, (size_t)R->n * sizeof *L.order, &R->order[upper]);
    if (st == HPLS_OK && !(R->off[upper] = hpls_malloc(L.nlev + 1, sizeof *R->off[upper])))
        st = HPLS_ERR_NOMEM;
    for (hpls_int l = 0; st == HPLS_OK && l <= L.nlev; l++)
        R->off[upper][l] = L.off[l];
    R->nlev[upper] = L.nlev;
    hpls_levels_free(&L);
    return st;
}

hpls_status hpls_dev_relax_upload(hpls_backend *be, const hpls_csr *A, const hpls_int *diagpos,
                                  int strategy, hpls_drelax **out)
{
    hpls_int n = A->nrows;
    *out = NULL;
    if (strategy == HPLS_TRI_BLOCK)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "trisolve=block is for dilu, dic and ilu0 on the host: a device's "
                         "relaxation sweeps take serial, levels, syncfree or auto");
    hpls_drelax *R = hpls_calloc(1, sizeof *R);
    hpls_int *lowend = NULL, *upbeg = NULL;
    if (!R)
        return HPLS_ERR_NOMEM;
    R->n = n;
    hpls_status st = hpls_dev_upload(be, diagpos, (size_t)n * sizeof *diagpos, &R->dp);
    if (st == HPLS_OK && (strategy == HPLS_TRI_LEVELS || strategy == HPLS_TRI_AUTO)) {
        if (!(lowend = hpls_malloc(n, sizeof *lowend)) || !(upbeg = hpls_malloc(n, sizeof *upbeg)))
            st = HPLS_ERR_NOMEM;
        if (st == HPLS_OK)
            hpls_k_tri_split(1, A, lowend, upbeg);
        for (int u = 0; st == HPLS_OK && u < 2; u++)
            st = upload_levels(be, R, A, lowend, upbeg, u);
    }
    if (st == HPLS_OK && strategy == HPLS_TRI_AUTO) {
        hpls_int levels = R->nlev[0] + R->nlev[1];
        strategy = levels > 0 && 2 * n >= RELAX_AUTO_ROWS * levels ? be->d->auto_sweep(be)
                                                                   : HPLS_TRI_SERIAL;
    }
    R->strategy = strategy;
    for (int u = 0; u < 2 && strategy != HPLS_TRI_LEVELS; u++) { /* built to decide only */
        hpls_dev_free(be, R->order[u]);
        hpls_free(R->off[u]);
        R->order[u] = NULL;
        R->off[u] = NULL;
        R->nlev[u] = 0;
    }
    if (st == HPLS_OK && strategy != HPLS_TRI_LEVELS)
        st = hpls_dev_ready_alloc(be, n, &R->ready);
    hpls_free(lowend);
    hpls_free(upbeg);
    if (st != HPLS_OK) {
        hpls_dev_relax_release(be, R);
        return st == HPLS_ERR_NOMEM
                   ? st
                   : hpls_dev_fail(be, st, "the relaxation sweeps of %lld rows", (long long)n);
    }
    *out = R;
    return HPLS_OK;
}

/* One sweep of kind mode with omega: x swept in place, xo the values before
 * the sweep (SOR: a copy of x; SSOR: not read), dinv D^-1 (SOR; NULL for
 * SSOR); the host's bits by every strategy. */
static void sweep(hpls_backend *be, hpls_drelax *R, const hpls_dmat *A, int mode, double omega,
                  const hpls_dvec *dinv, const hpls_dvec *b, hpls_dvec *x, const hpls_dvec *xo)
{
    /* ssor has no D^-1: A's values stand in, never read */
    hpls_dbuf *di = dinv ? hpls_dev_vbuf(dinv) : A->val;
    if (R->n == 0 || be->err != HPLS_OK)
        return;
    if (R->strategy == HPLS_TRI_LEVELS) { /* a launch a level, in order */
        int u = mode == RELAX_SOR_BWD || mode == RELAX_SSOR_BWD;
        for (hpls_int l = 0; l < R->nlev[u]; l++) {
            hpls_int first = R->off[u][l], count = R->off[u][l + 1] - first;
            HPLS_DEV_RUN(be, HPLS_K_relax_level, hpls_dev_groups(count), HPLS_KI(mode),
                         HPLS_KL(first), HPLS_KL(count), HPLS_KG(R->order[u]), HPLS_KG(A->rp),
                         HPLS_KG(A->ci), HPLS_KG(A->val), HPLS_KG(R->dp), HPLS_KG(di),
                         HPLS_KD(omega), HPLS_KV(b), HPLS_KV(x), HPLS_KV(xo));
        }
        return;
    }
    hpls_dev_syncfree(be, &R->ready, HPLS_K_relax_syncfree, R->strategy != HPLS_TRI_SYNCFREE, 1,
                      HPLS_KARGS(HPLS_KI(mode), HPLS_KL(R->n), HPLS_KG(A->rp), HPLS_KG(A->ci),
                                 HPLS_KG(A->val), HPLS_KG(R->dp), HPLS_KG(di), HPLS_KD(omega),
                                 HPLS_KV(b), HPLS_KV(x), HPLS_KV(xo)));
}

/* dx = x_old, the old values a row reads */
void hpls_dev_relax_sweep(hpls_backend *be, const hpls_relax_matrix *M, hpls_drelax *R,
                          double omega, int backward, const hpls_dvec *dinv, const hpls_dvec *b,
                          hpls_dvec *x, hpls_dvec *dx)
{
    hpls_v_copy(be, R->n, x, dx);
    sweep(be, R, M->dA, backward ? RELAX_SOR_BWD : RELAX_SOR_FWD, omega, dinv, b, x, dx);
}

/* forward into z, backward in place, then z *= w (2 - w) */
void hpls_dev_relax_ssor(hpls_backend *be, const hpls_relax_matrix *M, hpls_drelax *R, double omega,
                         const hpls_dvec *r, hpls_dvec *z)
{
    sweep(be, R, M->dA, RELAX_SSOR_FWD, omega, NULL, r, z, z);
    sweep(be, R, M->dA, RELAX_SSOR_BWD, omega, NULL, z, z, z);
    hpls_v_scale(be, R->n, omega * (2.0 - omega), z);
}

/* dx = x_old, kept by the sweep: the kernel forms x_old - x_new as it reads them */
double hpls_dev_relax_residual(hpls_backend *be, const hpls_relax_matrix *M, const hpls_drelax *R,
                               int upper, double dscale, const hpls_dvec *x, const hpls_dvec *dx,
                               hpls_dvec *r)
{
    const hpls_dmat *A = M->dA;
    const hpls_dvec *xo = dx;
    double ss = NAN;
    hpls_dbuf *part = hpls_dev_part(be, 1);
    if (!part)
        return ss;
    int ng = hpls_dev_rgroups(be, R->n);
    HPLS_DEV_RUN(be, HPLS_K_relax_residual_part, (size_t)ng, HPLS_KL(R->n), HPLS_KG(A->rp),
                 HPLS_KG(A->ci), HPLS_KG(A->val), HPLS_KG(R->dp), HPLS_KI(upper), HPLS_KD(dscale),
                 HPLS_KV(xo), HPLS_KV(x), HPLS_KV(r), HPLS_KG(part));
    hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_SUM, &ss);
    return ss;
}
