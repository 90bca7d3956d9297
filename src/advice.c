/* SPDX-License-Identifier: BSD-3-Clause */
/* advice.c: the method hpls advises for a matrix, and why: a ranked list of
 * candidates (hpls info tries them in turn, solver=auto runs the first and
 * falls back once to the second), in this order:
 *   zero diagonals: no method that divides by a_ii can start -> dilu where it
 *     builds all the same (it divides by E_ii), then reorder=matching;
 *   tiny diagonals (|a_ii| < WEAK_DIAG max_j |a_ij| somewhere) that the product
 *     matching makes WEAK_GAIN times larger -> reorder=matching (gre_115:
 *     2.1e-7 -> 0.42; bicgstab + ilu0 converges in 14 iterations after it,
 *     not in 2000 without);
 *   symmetric with a positive diagonal (likely SPD) -> cg + dic; where DIC
 *     breaks down (E_ii <= 0: SPD but not an M-matrix, bcsstk*, plat362),
 *     cg + ssor: symmetric Gauss-Seidel is SPD for an SPD A and has no pivots
 *     (it converged within 2000 iterations on bcsstk03-25 and plat362, where
 *     cg + jacobi needed up to 4346);
 *   quasi-tridiagonal with rho(T^-1 S) < RHO_HISA -> hisa;
 *   otherwise bicgstab + ilu0, then gmres + ilu0 (where BiCGSTAB breaks down
 *     or diverges although ILU(0) is good: olm500, olm1000, jpwh_991), then
 *     the preconditioners without pivots (ssor, jacobi) and none (rdb*: only
 *     unpreconditioned or jacobi-preconditioned Krylov methods converge). */
#include "advice.h"

#include "direct/direct.h"
#include "la/matching.h"
#include "la/split.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Power iterations of the rho(T^-1 S) estimate, and the margin below 1 that
 * HISA needs: its error shrinks by rho per sweep, and the estimate of a few
 * iterations may be a little low (sherman3: rows dominant by 1.000015 only). */
#define RHO_ITERS 60
#define RHO_HISA 0.9
/* quasi-tridiagonal: at least this share of the nonzeros in the band (HISA's
 * gas matrices: 3 of 3 + k per row, k <= 6, a third); rho(T^-1 S) then decides */
#define QUASI_TRIDIAG 0.3
/* a diagonal entry this small against its row's largest makes ILU(0)'s pivots
 * tiny; the matching is advised when it raises the smallest such ratio by
 * WEAK_GAIN */
#define WEAK_DIAG 1e-3
#define WEAK_GAIN 100.0

/* The power method on G = T^-1 S (Golub & Van Loan 2013, Sec. 7.3.1), G
 * applied as y = S x then T y' = y with T's Thomas factors, built once.  G is
 * not symmetric and its dominant eigenvalues may be a complex pair, so the
 * estimate is not one Rayleigh quotient but the geometric mean of the growth
 * ||G x_k|| / ||x_k|| over the second half of the iterations, which tends to
 * rho(G) in either case (Gelfand: ||G^k x||^(1/k) -> rho). */
hpls_status hpls_split_rho(const hpls_csr *A, hpls_int iters, double *rho)
{
    *rho = NAN;
    if (iters < 2)
        return hpls_fail(HPLS_ERR_ARG, "hpls_split_rho: %lld power iterations (at least 2)",
                         (long long)iters);
    hpls_tridiag *T;
    hpls_csr *S;
    hpls_status st = hpls_split_tridiag(A, 0, 1, &T, &S);
    if (st != HPLS_OK)
        return st;
    hpls_int n = A->nrows;
    hpls_thomas f = {0};
    hpls_real *x = hpls_malloc(n, sizeof *x), *y = hpls_malloc(n, sizeof *y);
    if (!x || !y) {
        st = HPLS_ERR_NOMEM;
        goto free_all;
    }
    if ((st = hpls_thomas_factor(n, T->dl, T->d, T->du, &f)) != HPLS_OK)
        goto free_all;
    /* a start with a component along every eigenvector (no symmetry of A's) */
    double nx = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        x[i] = 1.0 + 0.5 * sin(0.7 * (double)i + 0.3);
        nx += x[i] * x[i];
    }
    nx = sqrt(nx);
    double logsum = 0.0;
    hpls_int counted = 0;
    for (hpls_int k = 0; k < iters; k++) {
        for (hpls_int i = 0; i < n; i++) { /* y = S x / ||x|| */
            double sum = 0.0;
            for (hpls_int p = S->rowptr[i]; p < S->rowptr[i + 1]; p++)
                sum += S->val[p] * x[S->colind[p]];
            y[i] = sum / nx;
        }
        hpls_thomas_solve(&f, y, x); /* x = T^-1 y */
        double ny = 0.0;
        for (hpls_int i = 0; i < n; i++)
            ny += x[i] * x[i];
        ny = sqrt(ny);
        if (!(ny > 0.0) || !isfinite(ny)) { /* G x = 0 (S = 0, or x in G's kernel) */
            *rho = isfinite(ny) ? 0.0 : INFINITY;
            goto free_all;
        }
        if (2 * k >= iters) {
            logsum += log(ny);
            counted++;
        }
        nx = ny;
    }
    *rho = exp(logsum / (double)counted);
free_all:
    hpls_thomas_free(&f);
    hpls_free(x);
    hpls_free(y);
    hpls_csr_destroy(S);
    hpls_tridiag_destroy(T);
    return st;
}

static void add(hpls_advice *adv, const char *opts)
{
    if (adv->n < HPLS_ADVICE_MAX)
        snprintf(adv->opts[adv->n++], sizeof adv->opts[0], "%s", opts);
}

/* Whether preconditioner pc builds on A (called `on` in why); if not, why
 * (its message) in why. */
static int builds(const hpls_csr *A, const char *on, const char *pc, char *why, size_t len)
{
    char opt[64];
    hpls_precond *P = NULL;
    snprintf(opt, sizeof opt, "precond=%s threads=1 trisolve=serial", pc);
    hpls_status st = hpls_precond_create(&P);
    if (st == HPLS_OK && (st = hpls_precond_set_options(P, opt)) == HPLS_OK)
        st = hpls_precond_setup(P, A, 0);
    if (st != HPLS_OK)
        snprintf(why, len, "%s does not build: %s", pc,
                 P && *hpls_precond_message(P) ? hpls_precond_message(P) : hpls_last_error());
    else
        snprintf(why, len, "%s builds on %s (checked)", pc, on);
    hpls_precond_destroy(P);
    return st == HPLS_OK;
}

/* A Q, the columns of A permuted by the product matching (what
 * reorder=matching solves), in *B, and the smallest |a_{i,colof[i]}| /
 * max_j |a_ij| over the rows after it in *ratio; HPLS_ERR_SINGULAR when A has
 * no perfect matching on its nonzeros. */
static hpls_status matched(const hpls_csr *A, hpls_csr **B, double *ratio)
{
    hpls_int n = A->nrows;
    hpls_int *colof = hpls_malloc(n, sizeof *colof);
    hpls_status st = colof ? hpls_match_product(A, colof, NULL, NULL) : HPLS_ERR_NOMEM;
    *B = NULL;
    *ratio = INFINITY;
    for (hpls_int i = 0; st == HPLS_OK && i < n; i++) {
        double big = 0, m = 0;
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            big = fmax(big, fabs(A->val[p]));
            m = A->colind[p] == colof[i] ? fabs(A->val[p]) : m;
        }
        if (big > 0)
            *ratio = fmin(*ratio, m / big);
    }
    if (st == HPLS_OK)
        st = hpls_csr_scale_permute(A, NULL, colof, NULL, NULL, B);
    hpls_free(colof);
    return st;
}

/* The nonsymmetric candidates: ILU(0) (or DILU where it has a zero pivot)
 * with bicgstab, gmres and bicgstabl, then ssor, jacobi and none.  A: the matrix
 * the method will see (A Q after a matching); prefix: the reorder options in
 * front of each. */
static void general(const hpls_csr *A, const char *prefix, hpls_advice *adv, char *why, size_t len)
{
    char o[80];
    const char *on = prefix[0] ? "A Q" : "A";
    const char *pc = builds(A, on, "ilu0", why, len) ? "ilu0" : NULL;
    if (!pc) { /* ilu0's zero pivot is in why; dilu keeps a_ii on M's diagonal */
        size_t used = strlen(why);
        char more[300];
        pc = builds(A, on, "dilu", more, sizeof more) ? "dilu" : NULL;
        snprintf(why + used, len - used, "; %s", more);
    }
    static const char *const methods[] = {"bicgstab", "gmres", "bicgstabl"};
    for (int k = 0; pc && k < 3; k++) {
        snprintf(o, sizeof o, "%ssolver=%s precond=%s", prefix, methods[k], pc);
        add(adv, o);
    }
    /* no pivots to break down: ssor (bp_1200 after the matching: 188
     * iterations, where ilu0 and dilu have a zero pivot; rajat19 with the
     * matching's scaling too: 1300), bicgstabl + jacobi */
    snprintf(o, sizeof o, "%ssolver=bicgstab precond=ssor", prefix);
    add(adv, o);
    if (prefix[0]) {
        snprintf(o, sizeof o, "%sscale=matching solver=bicgstab precond=ssor", prefix);
        add(adv, o);
    }
    snprintf(o, sizeof o, "%ssolver=bicgstabl precond=jacobi", prefix);
    add(adv, o);
    snprintf(o, sizeof o, "%ssolver=bicgstab precond=jacobi", prefix);
    add(adv, o);
    snprintf(o, sizeof o, "%ssolver=bicgstab precond=none", prefix);
    add(adv, o);
    snprintf(o, sizeof o, "%ssolver=gmres precond=none", prefix);
    add(adv, o);
}

hpls_status hpls_advise(const hpls_csr *A, const hpls_props *p, hpls_advice *adv)
{
    memset(adv, 0, sizeof *adv);
    if (!A || A->nrows != A->ncols)
        return hpls_fail(HPLS_ERR_SIZE, "advice: the matrix must be square");
    double share = A->nnz ? (double)p->band / (double)A->nnz : 0.0;
    char(*why)[400] = adv->why;
    size_t len = sizeof adv->why[0];
    hpls_csr *B = NULL;
    double ratio = -1;
    if (p->zero_diag || p->min_diag_max < WEAK_DIAG) {
        hpls_status st = matched(A, &B, &ratio);
        if (st != HPLS_OK) /* structurally singular: no method can solve it */
            return st;
    }
    if (p->zero_diag)
        snprintf(why[0], len,
                 "%lld zero or missing diagonal entries: jacobi, gs, dilu and ilu0 divide by "
                 "a_ii; a matching permutes the columns to put nonzeros there (after it, the "
                 "smallest |a_ii| / max_j |a_ij| is %.3g)",
                 (long long)p->zero_diag, ratio);
    else if (B && ratio >= WEAK_GAIN * p->min_diag_max)
        snprintf(why[0], len,
                 "the smallest |a_ii| / max_j |a_ij| is %.3g: ilu0's pivots are tiny; the "
                 "product matching raises it to %.3g",
                 p->min_diag_max, ratio);
    if (why[0][0]) {
        /* dilu divides by E_ii, not a_ii: where it builds on A itself, it ran
         * faster without the matching (bench/results/matching.md: e05r0000,
         * e05r0500, e20r0000) */
        if (p->zero_diag && builds(A, "A itself", "dilu", why[2], len)) {
            add(adv, "solver=bicgstab precond=dilu");
            add(adv, "solver=gmres precond=dilu");
        }
        general(B, "reorder=matching ", adv, why[1], len);
        hpls_csr_destroy(B);
        return HPLS_OK;
    }
    hpls_csr_destroy(B);
    if (!p->value_asym && !p->nonpos) {
        snprintf(why[0], len, "symmetric values and every a_ii > 0: likely SPD");
        if (builds(A, "A", "dic", why[1], len))
            add(adv, "solver=cg precond=dic");
        else
            snprintf(why[2], len,
                     "ssor (symmetric Gauss-Seidel) is SPD for an SPD A and has "
                     "no pivots to break down");
        add(adv, "solver=cg precond=ssor");
        add(adv, "solver=cg precond=jacobi");
        add(adv, "solver=cg precond=none");
        return HPLS_OK;
    }
    double rho = NAN;
    if (share >= QUASI_TRIDIAG) {
        hpls_status st = hpls_split_rho(A, RHO_ITERS, &rho);
        if (st != HPLS_OK)
            snprintf(why[0], len,
                     "%.1f%% of the nonzeros in the band |i-j| <= 1, but T does not factor "
                     "without pivoting (%s): not hisa",
                     100.0 * share, hpls_last_error());
        else
            snprintf(why[0], len,
                     "%.1f%% of the nonzeros in the band |i-j| <= 1; rho(T^-1 S) ~ %.4g "
                     "(%d power iterations): hisa's error shrinks by about that factor "
                     "per sweep, %s",
                     100.0 * share, rho, RHO_ITERS,
                     rho < RHO_HISA ? "fast enough"
                     : rho < 1.0    ? "too slowly (hisa needs rho < 0.9)"
                                    : "so hisa diverges");
    } else {
        snprintf(why[0], len,
                 "%s, nonzero diagonal, %.1f%% of the nonzeros in the tridiagonal band: "
                 "a general sparse matrix",
                 !p->value_asym ? "symmetric with a diagonal entry <= 0" : "nonsymmetric",
                 100.0 * share);
    }
    if (rho < RHO_HISA)
        add(adv, "solver=hisa");
    general(A, "", adv, why[1], len);
    return HPLS_OK;
}

void hpls_advice_flags(const char *opts, char *out, size_t len)
{
    size_t k = 0;
    out[0] = '\0';
    for (const char *c = opts; *c && k + 3 < len; c++) {
        if (c == opts || c[-1] == ' ') { /* a key starts: "--" before it */
            out[k++] = '-';
            out[k++] = '-';
        }
        out[k++] = *c == '=' ? ' ' : *c;
    }
    out[k] = '\0';
}
