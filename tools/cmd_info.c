/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_info.c: `hpls info`: what a user needs to pick a method: size, symmetry,
 * diagonal (zeros, dominance), how much of A lies in the tridiagonal band,
 * bandwidth; then the method it advises and the evidence for it. */
#include "advice.h"
#include "backend/backend.h"
#include "cli.h"
#include "kernels/cpu/sptrsv.h"

#include <math.h>
#include <string.h>

/* Level sets of A's strictly lower and upper parts, the parallelism of the
 * triangular sweeps of dilu/ilu0 (Wang, Liu 2022, Fig. 7). */
static void print_levels(const hpls_csr *A)
{
    hpls_int n = A->nrows;
    hpls_int *lowend = hpls_malloc(n, sizeof *lowend), *upbeg = hpls_malloc(n, sizeof *upbeg);
    if (lowend && upbeg) {
        hpls_k_tri_split(hpls_default_threads(), A, lowend, upbeg);
        for (int upper = 0; upper < 2; upper++) {
            hpls_tri T = hpls_tri_of(A, upper, lowend, upbeg, NULL);
            hpls_levels L;
            hpls_int lo, med, hi;
            if (hpls_levels_build(&T, 0, &L) != HPLS_OK)
                break;
            hpls_levels_stats(&L, &lo, &med, &hi);
            printf("%-14s%s %lld (rows per level: min %lld, median %lld, max %lld)\n",
                   upper ? "" : "levels", upper ? "upper" : "lower", (long long)L.nlev,
                   (long long)lo, (long long)med, (long long)hi);
            hpls_levels_free(&L);
        }
    }
    hpls_free(lowend);
    hpls_free(upbeg);
}

/* The trial of each candidate: b = A 1 (the advice does not know the user's
 * b), x0 = 0, the tolerance and iteration limit of bench/results/advice.md. */
#define TRIAL_OPTS "tol=1e-8 maxiter=2000"

/* Solves A x = A 1 with the options opts + TRIAL_OPTS; what happened in out. */
static int trial(const hpls_csr *A, const char *opts, char *out, size_t len)
{
    hpls_int n = A->nrows;
    hpls_real *x = hpls_malloc(n, sizeof *x), *b = hpls_malloc(n, sizeof *b);
    hpls_solver *s = NULL;
    hpls_info info = {0};
    char o[160];
    snprintf(o, sizeof o, "%s " TRIAL_OPTS, opts);
    hpls_vec bv = {n, b}, xv = {n, x};
    hpls_status st = x && b ? HPLS_OK : HPLS_ERR_NOMEM;
    for (hpls_int i = 0; st == HPLS_OK && i < n; i++)
        x[i] = 1.0;
    if (st == HPLS_OK)
        st = hpls_csr_spmv(A, &xv, &bv);
    if (st == HPLS_OK)
        st = hpls_solver_create(&s);
    if (st == HPLS_OK && (st = hpls_solver_set_options(s, o)) == HPLS_OK &&
        (st = hpls_solver_setup(s, A)) == HPLS_OK) {
        if ((st = hpls_solver_solve(s, &bv, &xv)) == HPLS_OK)
            st = hpls_solver_get_info(s, &info);
    }
    int ok = st == HPLS_OK && hpls_reason_converged(info.reason);
    char flags[160];
    hpls_advice_flags(opts, flags, sizeof flags);
    if (st != HPLS_OK)
        snprintf(out, len, "%s: %s", flags, s ? hpls_solver_message(s) : hpls_last_error());
    else if (ok)
        snprintf(out, len, "%s: converged in %lld iterations (%.3g ms)", flags,
                 (long long)info.iterations, 1e3 * (info.setup_s + info.solve_s));
    else
        snprintf(out, len, "%s: %s after %lld iterations (relres %.3g)", flags,
                 hpls_reason_str(info.reason), (long long)info.iterations, info.relres);
    hpls_solver_destroy(s);
    hpls_free(x);
    hpls_free(b);
    return ok;
}

/* The advice (advice.c's candidates, tried in turn on b = A 1 until one
 * converges) and the evidence for it. */
static void advise(const hpls_csr *A, const hpls_props *p)
{
    hpls_advice adv;
    if (hpls_advise(A, p, &adv) != HPLS_OK) {
        printf("advice        none: no method can solve it: %s\n", hpls_last_error());
        return;
    }
    char tried[HPLS_ADVICE_MAX][400];
    int pick = -1;
    for (int k = 0; k < adv.n && pick < 0; k++)
        if (trial(A, adv.opts[k], tried[k], sizeof tried[k]))
            pick = k;
    char flags[160];
    if (pick >= 0) {
        hpls_advice_flags(adv.opts[pick], flags, sizeof flags);
        printf("advice        %s\n", flags);
    } else {
        printf("advice        none: no method of hpls converged on this; tried: the %d below\n",
               adv.n);
    }
    for (int k = 0; k < HPLS_ADVICE_WHY; k++)
        if (adv.why[k][0])
            printf("  because     %s\n", adv.why[k]);
    printf("  tried       on b = A 1, x0 = 0, " TRIAL_OPTS ", in turn:\n");
    for (int k = 0; k <= (pick >= 0 ? pick : adv.n - 1); k++)
        printf("                %s\n", tried[k]);
}

int cmd_info(int argc, char **argv)
{
    const char *path = NULL, *spec = NULL, *v;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: hpls info A.mtx | --gen SPEC | --devices\n\n"
                   "Prints n, nnz, symmetry of pattern and values, zero or missing diagonal\n"
                   "entries and the smallest |a_ii| / max_j |a_ij|, diagonal dominance (rows\n"
                   "strictly / weakly dominant and the smallest |a_ii| / sum_{j!=i} |a_ij|),\n"
                   "the share of nonzeros in the tridiagonal band, the bandwidth and the level\n"
                   "sets of the lower and upper triangles (the parallelism of dilu/ilu0's\n"
                   "sweeps); then the method it advises and why: rules on the diagonal,\n"
                   "symmetry and the band (for a quasi-tridiagonal A, rho(T^-1 S) estimated by\n"
                   "power iterations decides for or against hisa) rank the candidates, which\n"
                   "are tried in turn on b = A 1 (" TRIAL_OPTS "): the advice is the first\n"
                   "that converges, or none, with every trial's outcome.  --solver auto takes\n"
                   "the first candidate without trying it (and falls back once).\n"
                   "--devices lists the OpenCL platforms and devices (backend=opencl).\n");
            return 0;
        } else if (strcmp(argv[i], "--devices") == 0) { /* what --backend opencl runs on */
            return hpls_backend_devices(stdout) == HPLS_OK ? 0 : 1;
        } else if ((v = cli_flag_value(argc, argv, &i, "--gen"))) {
            spec = v;
        } else if (argv[i][0] == '-' || path) {
            return cli_error("unexpected argument %s (see hpls info --help)", argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (!path && !spec)
        return cli_error("hpls info needs a matrix file or --gen SPEC");
    cli_problem pb;
    int rc = cli_load(path, spec, 0, &pb);
    if (rc)
        return rc;
    const hpls_csr *A = pb.A;
    hpls_props p;
    hpls_matrix_props(A, &p);
    hpls_int n = A->nrows;
    printf("matrix        %s\n", pb.label);
    printf("size          %lld x %lld, nnz %lld (%.2f per row)\n", (long long)A->nrows,
           (long long)A->ncols, (long long)A->nnz, n ? (double)A->nnz / (double)n : 0.0);
    if (A->nrows == A->ncols)
        printf("symmetry      pattern %s, values %s\n",
               p.pattern_asym ? "nonsymmetric" : "symmetric",
               p.value_asym ? "nonsymmetric" : "symmetric");
    else
        printf("symmetry      rectangular\n");
    if (p.zero_diag)
        printf("diagonal      %lld zero or missing entries (first: row %lld)\n",
               (long long)p.zero_diag, (long long)p.first_zero + 1);
    else
        printf("diagonal      no zero entries; min |a_ii|/max_j|a_ij| %.4g\n", p.min_diag_max);
    printf(
        "dominance     %lld rows strictly, %lld weakly dominant of %lld; min |a_ii|/sum|a_ij| %s",
        (long long)p.strict, (long long)p.weak, (long long)n, isinf(p.min_ratio) ? "inf" : "");
    if (!isinf(p.min_ratio))
        printf("%.7g", p.min_ratio);
    printf("\ntridiagonal   %.1f%% of the nonzeros lie in the band |i-j| <= 1\n",
           A->nnz ? 100.0 * (double)p.band / (double)A->nnz : 0.0);
    printf("bandwidth     %lld\n", (long long)p.bw);
    if (A->nrows == A->ncols) {
        print_levels(A);
        advise(A, &p);
    }
    cli_problem_free(&pb);
    return 0;
}
