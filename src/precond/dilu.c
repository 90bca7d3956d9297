/* dilu.c (precond): DILU, OpenFOAM's diagonal incomplete LU, and DIC, its
 * symmetric case (Wang, Liu, Computer Science 49(6), 2022, Sec. 2).  With
 * A = L + D + U, M = (E + L) E^-1 (E + U) with E diagonal such that
 * diag(M) = diag(A):
 *     E_ii = A_ii - sum_{j<i} K_ij / E_jj,   K = L o U^T (Hadamard product),
 * so E_ii waits only for the E_jj with K_ij != 0.  Construction by strategy:
 * serial (i = 0..n-1), levels (Alg. 3: level sets of K by Alg. 7, one parallel
 * loop per level) or syncfree (Alg. 5: ready flags).  Application (Sec. 2.2.4):
 * (E + L) g1 = r, then (E + U) z = E g1, by the sweeps of trisolve.c.
 * M^T = (E + U^T) E^-1 (E + L^T) is the DILU of A^T with the same E, so M^-T
 * is the same two sweeps over A^T.  DIC: A symmetric, U = L^T, K_ij = A_ij^2,
 * and M is positive definite iff every E_ii > 0, which is checked at setup. */
#include "precond/trisolve.h"

#include <omp.h>

/* K = L o U^T, stored by rows: row i holds the j < i with A_ij, A_ji both stored. */
typedef struct kmat {
    hpls_int *ptr; /* n+1 offsets */
    hpls_idx *col;
    hpls_real *val; /* A_ij A_ji */
} kmat;

/* Position of column c in A's positions [lo, hi), or -1. */
static hpls_int find_col(const hpls_csr *A, hpls_int lo, hpls_int end, hpls_int c)
{
    hpls_int hi = end;
    while (lo < hi) {
        hpls_int mid = lo + (hi - lo) / 2;
        if (A->colind[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end && A->colind[lo] == c ? lo : -1;
}

/* Alg. 3 line 1.  For dic, *asym receives the first row (1-based) whose lower
 * part does not mirror the upper part in pattern and values (0: symmetric). */
static hpls_status build_k(const hpls_trisplit *t, int parallel, kmat *K, hpls_int *asym)
{
    const hpls_csr *A = t->A;
    hpls_int n = A->nrows, nupper = 0, first_asym = n;
    K->ptr = hpls_calloc(n + 1, sizeof *K->ptr);
    if (!K->ptr)
        return HPLS_ERR_NOMEM;
#pragma omp parallel for schedule(static) if (parallel) reduction(+ : nupper) reduction(min : first_asym)
    for (hpls_int i = 0; i < n; i++) {
        hpls_int count = 0;
        for (hpls_int p = A->rowptr[i]; p < t->lowend[i]; p++) {
            hpls_int j = A->colind[p];
            hpls_int q = find_col(A, t->upbeg[j], A->rowptr[j + 1], i);
            count += q >= 0;
            if ((q < 0 || A->val[q] != A->val[p]) && i < first_asym)
                first_asym = i;
        }
        K->ptr[i + 1] = count;
        nupper += A->rowptr[i + 1] - t->upbeg[i];
    }
    for (hpls_int i = 0; i < n; i++)
        K->ptr[i + 1] += K->ptr[i];
    /* every lower entry mirrored and as many upper entries: symmetric */
    *asym = first_asym < n ? first_asym + 1 : (K->ptr[n] != nupper ? n : 0);
    K->col = hpls_malloc(K->ptr[n], sizeof *K->col);
    K->val = hpls_malloc(K->ptr[n], sizeof *K->val);
    if (!K->col || !K->val)
        return HPLS_ERR_NOMEM;
#pragma omp parallel for schedule(static) if (parallel)
    for (hpls_int i = 0; i < n; i++) {
        hpls_int k = K->ptr[i];
        for (hpls_int p = A->rowptr[i]; p < t->lowend[i]; p++) {
            hpls_int j = A->colind[p];
            hpls_int q = find_col(A, t->upbeg[j], A->rowptr[j + 1], i);
            if (q >= 0) {
                K->col[k] = (hpls_idx)j;
                K->val[k++] = A->val[p] * A->val[q];
            }
        }
    }
    return HPLS_OK;
}

/* E_ii = d_i - sum_j K_ij / E_jj (Alg. 3 line 6, Alg. 5 lines 3-10); E holds d on entry. */
static inline void e_row(const kmat *K, hpls_int i, hpls_real *E, hpls_real *rD)
{
    double s = E[i];
    for (hpls_int k = K->ptr[i]; k < K->ptr[i + 1]; k++)
        s -= K->val[k] * rD[K->col[k]];
    E[i] = s;
    rD[i] = 1.0 / s;
}

static hpls_status build_e(int strategy, hpls_sync *S, const kmat *K, hpls_int n, hpls_real *E,
                           hpls_real *rD)
{
    if (strategy == HPLS_TRI_SERIAL) {
        for (hpls_int i = 0; i < n; i++)
            e_row(K, i, E, rD);
    } else if (strategy == HPLS_TRI_LEVELS) { /* Alg. 3 */
        hpls_tri T = {.n = n, .lo = K->ptr, .hi = K->ptr + 1, .col = K->col};
        hpls_levels L;
        hpls_status st = hpls_levels_build(&T, omp_get_max_threads() > 1, &L);
        if (st != HPLS_OK)
            return st;
#pragma omp parallel
        for (hpls_int l = 0; l < L.nlev; l++) {
#pragma omp for schedule(static)
            for (hpls_int off = L.off[l]; off < L.off[l + 1]; off++)
                e_row(K, L.order[off], E, rD);
        }
        hpls_levels_free(&L);
    } else { /* Alg. 5 */
        unsigned epoch = hpls_sync_begin(S);
#pragma omp parallel
        {
            hpls_int k;
            while ((k = hpls_sync_claim(S)) < n) {
                hpls_int kend = k + HPLS_SYNC_CHUNK < n ? k + HPLS_SYNC_CHUNK : n;
                for (hpls_int i = k; i < kend; i++) {
                    for (hpls_int q = K->ptr[i]; q < K->ptr[i + 1]; q++)
                        hpls_sync_wait(S, K->col[q], epoch);
                    e_row(K, i, E, rD);
                    hpls_sync_post(S, i, epoch);
                }
            }
        }
    }
    return HPLS_OK;
}

static hpls_status setup_dilu(const hpls_solver *s, hpls_pc *pc, int symmetric)
{
    hpls_trifac *F;
    kmat K = {0};
    hpls_int asym = 0;
    hpls_status st = hpls_trifac_create(s, symmetric ? "dic" : "dilu", &F);
    if (st != HPLS_OK)
        return st;
    hpls_int n = F->n;
    hpls_real *E = F->vec[0] = hpls_malloc(n, sizeof *E);
    hpls_real *rD = F->vec[1] = hpls_malloc(n, sizeof *rD);
    if (!E || !rD) {
        st = HPLS_ERR_NOMEM;
        goto done;
    }
    if ((st = build_k(&F->a, F->build != HPLS_TRI_SERIAL, &K, &asym)) != HPLS_OK)
        goto done;
    if (symmetric && asym) {
        st = hpls_fail(HPLS_ERR_UNSUPPORTED,
                       "dic: A is not symmetric (row %lld differs from its column): use dilu",
                       (long long)asym);
        goto done;
    }
    for (hpls_int i = 0; i < n; i++)
        E[i] = hpls_trifac_diag(&F->a, i, s->opt.shift);
    if ((st = build_e(F->build, &F->sync, &K, n, E, rD)) != HPLS_OK)
        goto done;
    if ((st = hpls_trifac_check(F, E, "E_ii", symmetric)) != HPLS_OK)
        goto done;
    /* (E + L) g1 = r: g1_i = (r_i - sum L_ij g1_j) / E_ii; (E + U) z = E g1 */
    F->fwd = (hpls_sweep){.T = hpls_tri_of(s->A, 0, F->a.lowend, F->a.upbeg, s->A->val), .dinv = rD};
    F->bwd = (hpls_sweep){.T = hpls_tri_of(s->A, 1, F->a.lowend, F->a.upbeg, s->A->val),
                          .bscale = E,
                          .dinv = rD};
    if (F->at.A) {
        const hpls_csr *At = F->at.A;
        F->fwd_t = F->fwd;
        F->bwd_t = F->bwd;
        F->fwd_t.T = hpls_tri_of(At, 0, F->at.lowend, F->at.upbeg, At->val);
        F->bwd_t.T = hpls_tri_of(At, 1, F->at.lowend, F->at.upbeg, At->val);
    }
    st = hpls_trifac_finish(F, pc);
done:
    hpls_free(K.ptr);
    hpls_free(K.col);
    hpls_free(K.val);
    if (st != HPLS_OK)
        hpls_trifac_destroy(F);
    return st;
}

hpls_status hpls_pc_setup_dilu(const hpls_solver *s, hpls_pc *pc) { return setup_dilu(s, pc, 0); }

hpls_status hpls_pc_setup_dic(const hpls_solver *s, hpls_pc *pc) { return setup_dilu(s, pc, 1); }
