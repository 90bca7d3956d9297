/* sptrsv.c: sparse triangular sweeps x_i = (bscale_i b_i - sum_j T_ij x_j) dinv_i
 * (Wang, Liu 2022): the plain loop, level scheduling (Alg. 4: the rows of a level
 * in one parallel loop, a barrier between levels) and the synchronization-free
 * sweep (Alg. 6: each row waits only for the rows it reads, through per-row
 * ready flags; rows handed out in dependency order, see hpls_sync).  One row
 * body for the three, so they agree bit for bit. */
#include "kernels/cpu/sptrsv.h"

#include <omp.h>

static inline void sweep_row(const hpls_sweep *w, hpls_int i, const hpls_real *b, hpls_real *x)
{
    const hpls_tri *T = &w->T;
    double s = w->bscale ? w->bscale[i] * b[i] : b[i];
    for (hpls_int p = T->lo[i]; p < T->hi[i]; p++)
        s -= T->val[p] * x[T->col[p]];
    x[i] = w->dinv ? s * w->dinv[i] : s;
}

void hpls_k_sweep_serial(const hpls_sweep *w, const hpls_real *b, hpls_real *x)
{
    hpls_int n = w->T.n;
    for (hpls_int k = 0; k < n; k++)
        sweep_row(w, w->T.upper ? n - 1 - k : k, b, x);
}

void hpls_k_sweep_levels(const hpls_sweep *w, const hpls_real *b, hpls_real *x)
{
    const hpls_levels *L = &w->lev;
#pragma omp parallel
    for (hpls_int l = 0; l < L->nlev; l++) { /* Alg. 4 line 1; the loop ends in a barrier */
#pragma omp for schedule(static)
        for (hpls_int off = L->off[l]; off < L->off[l + 1]; off++)
            sweep_row(w, L->order[off], b, x);
    }
}

void hpls_k_sweep_syncfree(const hpls_sweep *w, hpls_sync *S, const hpls_real *b, hpls_real *x)
{
    const hpls_tri *T = &w->T;
    hpls_int n = T->n;
    unsigned epoch = hpls_sync_begin(S);
#pragma omp parallel
    {
        hpls_int k;
        while ((k = hpls_sync_claim(S)) < n) {
            hpls_int kend = k + HPLS_SYNC_CHUNK < n ? k + HPLS_SYNC_CHUNK : n;
            hpls_int first = T->upper ? n - 1 - k : k; /* rows of this chunk are done in order */
            for (; k < kend; k++) {
                hpls_int i = T->upper ? n - 1 - k : k;
                for (hpls_int p = T->lo[i]; p < T->hi[i]; p++) {
                    hpls_int j = T->col[p];
                    if (T->upper ? j > first : j < first) /* Alg. 6 lines 5-7 */
                        hpls_sync_wait(S, j, epoch);
                }
                sweep_row(w, i, b, x);
                hpls_sync_post(S, i, epoch);
            }
        }
    }
}
