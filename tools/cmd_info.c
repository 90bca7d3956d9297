/* cmd_info.c: `hpls info`: what a user needs to pick a method: size, symmetry,
 * diagonal (zeros, dominance), how much of A lies in the tridiagonal band,
 * bandwidth; then the method it advises and the evidence for it. */
#include "backend/backend.h"
#include "cli.h"
#include "kernels/cpu/sptrsv.h"
#include "la/analyze.h"

#include <math.h>
#include <string.h>

/* Value of A(i, j), found by binary search in row i; *found = 0 if not stored. */
static double entry(const hpls_csr *A, hpls_int i, hpls_int j, int *found)
{
    hpls_int lo = A->rowptr[i], hi = A->rowptr[i + 1];
    while (lo < hi) {
        hpls_int mid = lo + (hi - lo) / 2;
        if (A->colind[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < A->rowptr[i + 1] && A->colind[lo] == j;
    return *found ? A->val[lo] : 0.0;
}

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

/* Power iterations of the rho(T^-1 S) estimate, and the margin below 1 that
 * HISA needs: its error shrinks by rho per sweep, and the estimate of a few
 * iterations may be a little low (sherman3: rows dominant by 1.000015 only). */
#define RHO_ITERS 60
#define RHO_HISA 0.9
/* quasi-tridiagonal: at least this share of the nonzeros in the band (HISA's
 * gas matrices: 3 of 3 + k per row, k <= 6, a third); rho(T^-1 S) then decides */
#define QUASI_TRIDIAG 0.3

/* Whether preconditioner pc builds on A; if not, why (its message) in why. */
static int builds(const hpls_csr *A, const char *pc, char *why, size_t len)
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
    hpls_precond_destroy(P);
    return st == HPLS_OK;
}

/* The advice: a method and the evidence that chose it, in this order:
 * zero diagonals (no method that divides by a_ii can start) -> matching;
 * symmetric with a positive diagonal (likely SPD) -> CG + DIC, or CG + Jacobi
 * when DIC breaks down (E_ii <= 0: SPD but not an M-matrix, bcsstk*);
 * quasi-tridiagonal with rho(T^-1 S) < RHO_HISA -> HISA; otherwise BiCGSTAB +
 * ILU(0), or DILU when ILU(0) has a zero pivot.  Where rho >= RHO_HISA, T alone
 * as the preconditioner (bicgstab + tridiag) was 1.8 to 45 times slower than
 * the fastest method on the test matrices (bench/results/advice.md), ILU(0)
 * holds T and the rest of A's pattern. */
static void advise(const hpls_csr *A, hpls_int zero_diag, int symmetric, int positive, double share)
{
    char method[96] = "--solver bicgstab --precond ilu0";
    char why[3][400] = {"", "", ""};
    const char *pc = "ilu0";
    if (zero_diag) {
        snprintf(method, sizeof method, "--reorder matching --solver bicgstab --precond ilu0");
        snprintf(why[0], sizeof why[0],
                 "%lld zero or missing diagonal entries: jacobi, gs, dilu and ilu0 divide by "
                 "a_ii; a matching permutes rows to put nonzeros there",
                 (long long)zero_diag);
        pc = NULL;
    } else if (symmetric && positive) {
        snprintf(why[0], sizeof why[0], "symmetric values and every a_ii > 0: likely SPD");
        snprintf(method, sizeof method, "--solver cg --precond dic");
        pc = "dic";
        if (!builds(A, "dic", why[1], sizeof why[1])) {
            snprintf(method, sizeof method, "--solver cg --precond jacobi");
            pc = NULL;
        }
    } else {
        double rho = NAN;
        if (share >= QUASI_TRIDIAG) {
            hpls_status st = hpls_split_rho(A, RHO_ITERS, &rho);
            if (st != HPLS_OK)
                snprintf(why[0], sizeof why[0],
                         "%.1f%% of the nonzeros in the band |i-j| <= 1, but T does not factor "
                         "without pivoting (%s): not hisa",
                         100.0 * share, hpls_last_error());
            else
                snprintf(why[0], sizeof why[0],
                         "%.1f%% of the nonzeros in the band |i-j| <= 1; rho(T^-1 S) ~ %.4g "
                         "(%d power iterations): hisa's error shrinks by about that factor "
                         "per sweep, %s",
                         100.0 * share, rho, RHO_ITERS,
                         rho < RHO_HISA ? "fast enough"
                         : rho < 1.0    ? "too slowly (hisa needs rho < 0.9)"
                                        : "so hisa diverges");
        } else {
            snprintf(why[0], sizeof why[0],
                     "%s, nonzero diagonal, %.1f%% of the nonzeros in the tridiagonal band: "
                     "a general sparse matrix",
                     symmetric ? "symmetric with a diagonal entry <= 0" : "nonsymmetric",
                     100.0 * share);
        }
        if (rho < RHO_HISA) {
            snprintf(method, sizeof method, "--solver hisa");
            pc = NULL;
        } else if (!builds(A, "ilu0", why[1], sizeof why[1])) {
            snprintf(method, sizeof method, "--solver bicgstab --precond dilu");
            pc = "dilu";
            if (!builds(A, "dilu", why[2], sizeof why[2])) {
                snprintf(method, sizeof method, "--solver bicgstab --precond jacobi");
                pc = NULL;
            }
        }
    }
    if (pc && !why[1][0])
        snprintf(why[1], sizeof why[1], "%s builds on A (checked)", pc);
    printf("advice        %s\n", method);
    for (int k = 0; k < 3; k++)
        if (why[k][0])
            printf("  because     %s\n", why[k]);
}

int cmd_info(int argc, char **argv)
{
    const char *path = NULL, *spec = NULL, *v;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: hpls info A.mtx | --gen SPEC | --devices\n\n"
                   "Prints n, nnz, symmetry of pattern and values, zero or missing diagonal\n"
                   "entries, diagonal dominance (rows strictly / weakly dominant and the\n"
                   "smallest |a_ii| / sum_{j!=i} |a_ij|), the share of nonzeros in the\n"
                   "tridiagonal band, the bandwidth and the level sets of the lower and\n"
                   "upper triangles (the parallelism of dilu/ilu0's sweeps); then the\n"
                   "method it advises and why (for a quasi-tridiagonal A, rho(T^-1 S)\n"
                   "estimated by power iterations decides between hisa and a tridiagonal\n"
                   "preconditioner).\n"
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
    hpls_int n = A->nrows, zero_diag = 0, strict = 0, weak = 0, band = 0, bw = 0;
    hpls_int pattern_asym = 0, value_asym = 0, first_zero = -1, nonpos = 0;
    double min_ratio = INFINITY;
    for (hpls_int i = 0; i < n; i++) {
        double diag = 0, off = 0;
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            hpls_int j = A->colind[p];
            double a = A->val[p];
            if (j == i)
                diag = a;
            else
                off += fabs(a);
            hpls_int d = j > i ? j - i : i - j;
            band += d <= 1;
            bw = d > bw ? d : bw;
            if (A->nrows == A->ncols && j != i) {
                int found;
                double t = entry(A, j, i, &found);
                pattern_asym += !found;
                value_asym += t != a;
            }
        }
        nonpos += !(diag > 0);
        if (diag == 0 && i < A->ncols) {
            zero_diag++;
            if (first_zero < 0)
                first_zero = i;
        }
        strict += fabs(diag) > off;
        weak += fabs(diag) >= off;
        if (off > 0)
            min_ratio = fmin(min_ratio, fabs(diag) / off);
    }
    printf("matrix        %s\n", pb.label);
    printf("size          %lld x %lld, nnz %lld (%.2f per row)\n", (long long)A->nrows,
           (long long)A->ncols, (long long)A->nnz, n ? (double)A->nnz / (double)n : 0.0);
    if (A->nrows == A->ncols)
        printf("symmetry      pattern %s, values %s\n", pattern_asym ? "nonsymmetric" : "symmetric",
               value_asym ? "nonsymmetric" : "symmetric");
    else
        printf("symmetry      rectangular\n");
    if (zero_diag)
        printf("diagonal      %lld zero or missing entries (first: row %lld)\n",
               (long long)zero_diag, (long long)first_zero + 1);
    else
        printf("diagonal      no zero entries\n");
    printf(
        "dominance     %lld rows strictly, %lld weakly dominant of %lld; min |a_ii|/sum|a_ij| %s",
        (long long)strict, (long long)weak, (long long)n, isinf(min_ratio) ? "inf" : "");
    if (!isinf(min_ratio))
        printf("%.7g", min_ratio);
    printf("\ntridiagonal   %.1f%% of the nonzeros lie in the band |i-j| <= 1\n",
           A->nnz ? 100.0 * (double)band / (double)A->nnz : 0.0);
    printf("bandwidth     %lld\n", (long long)bw);
    if (A->nrows == A->ncols)
        print_levels(A);
    if (A->nrows == A->ncols)
        advise(A, zero_diag, !value_asym, nonpos == 0,
               A->nnz ? (double)band / (double)A->nnz : 0.0);
    cli_problem_free(&pb);
    return 0;
}
