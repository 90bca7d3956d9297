/* kernels.c: every kernel of the opencl backend once, on small sizes (three
 * work-groups and a partial one), for `make oclgrind` to watch with
 * --data-races (tests/oclgrind/run.sh), and the factors' constructions
 * through solver setups.  It checks no numbers: test_opencl
 * does; exit 77 without an OpenCL platform. */
#include "backend/backend.h"
#include "direct/direct.h"
#include "hpls.h"
#include "kernels/cpu/sptrsv.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    hpls_backend *be;
    hpls_status st = hpls_backend_create(2, 1, &be);
    if (st != HPLS_OK) {
        printf("skipped: %s\n", hpls_last_error());
        return st == HPLS_ERR_NOT_COMPILED || st == HPLS_ERR_UNSUPPORTED ? 77 : 1;
    }
    enum { N = 300, K = 3 };
    hpls_csr *A = NULL;
    if (hpls_gen_csr("random:n=300,k=20", &A, NULL) != HPLS_OK)
        return 1;
    hpls_real h[N];
    for (int i = 0; i < N; i++)
        h[i] = (i % 7) - 3.5;
    hpls_dvec *v[8];
    for (int i = 0; i < 8; i++)
        if (hpls_be_vector(be, N, h, &v[i]) != HPLS_OK)
            return 1;
    const hpls_dvec *const *V = (const hpls_dvec *const *)v;
    const double a[K] = {0.5, 0.25, 2.0};
    double r[2 * K + 3], t, u, w;
    be->v->copy(be, N, v[0], v[7]);
    be->v->set(be, N, 1.0, v[7]);
    be->v->scale(be, N, 2.0, v[7]);
    be->v->axpy(be, N, 0.5, v[0], v[7]);
    be->v->axpby(be, N, 0.5, v[0], 0.3, v[7]);
    be->v->xpay(be, N, v[0], 0.3, v[7]);
    be->v->waxpy(be, N, 0.3, v[0], v[1], v[7]);
    be->v->axpbypcz(be, N, 0.3, v[0], 0.2, v[1], 0.1, v[7]);
    be->v->pmult(be, N, v[0], v[1], v[7]);
    be->v->diag_axpy(be, N, 0.3, v[0], v[1], v[7]);
    be->v->bicgstab_p(be, N, v[0], 0.3, 0.2, v[1], v[7]);
    t = be->v->dot(be, N, v[0], v[1]);
    t += be->v->nrm2(be, N, v[0]);
    be->v->scale(be, N, 1e200, v[6]); /* the scaled norm's kernels */
    t += be->v->nrm2(be, N, v[6]);
    be->v->mdot(be, N, K, V, v[4], r);
    be->v->maxpy(be, N, K, a, V, 0.5, v[5]);
    be->v->mdot2(be, N, K, V, v[4], v[5], r);
    be->v->maxpy2(be, N, K, V, a, 0.9, v[4], a, 0.1, 1.1, v[5]);
    be->v->dot3(be, N, v[0], v[1], &t, &u, &w);
    be->v->bicgstab_xr(be, N, 0.1, v[0], 0.2, v[1], v[2], v[3], v[4], v[5], v[6], &t, &u);
    t += be->v->hisa_update(be, N, v[0], v[1], v[2], v[7]);
    be->v->finite(be, N, v[0], &t);
    for (int variant = 1; variant <= 2; variant++) {
        hpls_dmat *D;
        if (be->d->csr_upload(be, A, variant, &D) != HPLS_OK)
            return 1;
        be->d->spmv(be, D, v[0], v[7]);
        t += be->d->residual(be, D, v[1], v[0], v[7]);
        be->d->csr_release(be, D);
    }
    hpls_tridiag *T; /* blocks of 128 rows and a partial one: CR's every level */
    if (hpls_tridiag_create(N, &T) != HPLS_OK)
        return 1;
    for (int i = 0; i < N; i++) {
        T->dl[i] = i % 128 ? -1.0 : 0.0;
        T->du[i] = (i + 1) % 128 ? -1.0 : 0.0;
        T->d[i] = 4.0;
    }
    hpls_dtri *D;
    if (be->d->tri_upload(be, T, 128, &D) != HPLS_OK)
        return 1;
    be->d->tri_solve(be, D, v[0], v[7]);
    be->d->tri_release(be, D);
    hpls_tridiag_destroy(T);
    /* the tridiagonal direct solvers: thomas's blocks, cr level by level (640
     * rows: beyond local memory) on a dominant T; then g-Spike with every
     * switch on a T of two pieces (the second waits on the first), 10
     * partitions each, the first of each singular (the repair; the
     * refinement's residual), and each piece's reduced system at the next level */
    enum { NT = 640 };
    hpls_tridiag *G;
    hpls_dvec *gb, *gx;
    if (hpls_tridiag_gallery(18, NT, 1, &G, NULL, NULL) != HPLS_OK ||
        be->v->alloc(be, NT, &gb) != HPLS_OK || be->v->alloc(be, NT, &gx) != HPLS_OK)
        return 1;
    be->v->set(be, NT, 1.0, gb);
    static const int hows[] = {HPLS_TFAC_REDUCED_DEVICE | HPLS_TFAC_NATURAL,
                               HPLS_TFAC_REDUCED_DEVICE | HPLS_TFAC_TILED,
                               HPLS_TFAC_REDUCED_HOST | HPLS_TFAC_NATURAL};
    const hpls_tridiag_opts o = {.partitions = 10, .delta = HPLS_TRIDIAG_DELTA_DEFAULT};
    for (int k = 0; k < 5; k++) {
        if (k == 2) {
            G->du[319] = 0.0;
            if (hpls_tridiag_singular_blocks(G, 32, 2, 18, 1) != HPLS_OK)
                return 1;
        }
        hpls_dtfac *F;
        int method = k == 0 ? HPLS_TRIDIAG_THOMAS : k == 1 ? HPLS_TRIDIAG_CR : HPLS_TRIDIAG_GSPIKE;
        if (be->d->tfac_factor(be, G, k == 0 ? 100 : NT, method, &o, k > 1 ? hows[k - 2] : 0, &F) !=
            HPLS_OK) {
            fprintf(stderr, "%s\n", hpls_last_error());
            return 1;
        }
        be->d->tfac_solve(be, F, gb, gx);
        be->d->tfac_release(be, F);
    }
    be->v->release(be, gb);
    be->v->release(be, gx);
    hpls_tridiag_destroy(G);
    hpls_int lowend[N], upbeg[N]; /* the sweeps of A's lower and upper part */
    hpls_k_tri_split(1, A, lowend, upbeg);
    for (int upper = 0; upper < 2; upper++) {
        hpls_sweep w = {.T = hpls_tri_of(A, upper, lowend, upbeg, A->val), .dinv = h};
        hpls_dsweep *W;
        if (hpls_levels_build(&w.T, 1, &w.lev) != HPLS_OK ||
            be->d->sweep_upload(be, &w, &W) != HPLS_OK)
            return 1;
        for (int strategy = 0; strategy < 3; strategy++)
            be->d->sweep(be, W, strategy, v[0], v[7]);
        be->d->sweep_release(be, W);
        hpls_levels_free(&w.lev);
    }
    /* dilu's, dic's and ilu0's constructions (factor.cl) by every strategy,
     * through setups on a symmetric matrix of 343 rows (bicg: with M^-T) */
    static const char *const facs[] = {"bicgstab precond=dilu trisolve=serial",
                                       "bicg precond=dilu trisolve=levels",
                                       "bicg precond=dilu trisolve=syncfree",
                                       "bicgstab precond=dilu trisolve=levels dilu_order=faces",
                                       "bicgstab precond=dic trisolve=syncfree",
                                       "bicg precond=ilu0 trisolve=levels",
                                       "bicg precond=ilu0 trisolve=syncfree"};
    hpls_csr *P = NULL;
    if (hpls_gen_csr("poisson3d:nx=7", &P, NULL) != HPLS_OK)
        return 1;
    for (size_t k = 0; k < sizeof facs / sizeof *facs; k++) {
        char o[160];
        snprintf(o, sizeof o, "solver=%s backend=opencl maxiter=1", facs[k]);
        hpls_solver *s;
        if (hpls_solver_create(&s) != HPLS_OK || hpls_solver_set_options(s, o) != HPLS_OK ||
            hpls_solver_setup(s, P) != HPLS_OK) {
            fprintf(stderr, "%s: %s\n", o, hpls_last_error());
            return 1;
        }
        hpls_solver_destroy(s);
    }
    hpls_csr_destroy(P);
    st = be->err;
    if (st != HPLS_OK)
        fprintf(stderr, "%s\n", be->msg);
    for (int i = 0; i < 8; i++)
        be->v->release(be, v[i]);
    hpls_backend_destroy(be);
    hpls_csr_destroy(A);
    printf("kernels run (%g)\n", t);
    return st == HPLS_OK ? 0 : 1;
}
