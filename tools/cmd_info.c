/* cmd_info.c: `hpls info`: what a user needs to pick a method: size, symmetry,
 * diagonal (zeros, dominance), how much of A lies in the tridiagonal band, bandwidth. */
#include "cli.h"
#include "kernels/cpu/sptrsv.h"

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

int cmd_info(int argc, char **argv)
{
    const char *path = NULL, *spec = NULL, *v;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: hpls info A.mtx | --gen SPEC\n\n"
                   "Prints n, nnz, symmetry of pattern and values, zero or missing diagonal\n"
                   "entries, diagonal dominance (rows strictly / weakly dominant and the\n"
                   "smallest |a_ii| / sum_{j!=i} |a_ij|), the share of nonzeros in the\n"
                   "tridiagonal band, the bandwidth and the level sets of the lower and\n"
                   "upper triangles (the parallelism of dilu/ilu0's sweeps).\n");
            return 0;
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
    hpls_int pattern_asym = 0, value_asym = 0, first_zero = -1;
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
        printf("%.4g", min_ratio);
    printf("\ntridiagonal   %.1f%% of the nonzeros lie in the band |i-j| <= 1\n",
           A->nnz ? 100.0 * (double)band / (double)A->nnz : 0.0);
    printf("bandwidth     %lld\n", (long long)bw);
    if (A->nrows == A->ncols)
        print_levels(A);
    /* HISA converges when rho(T^-1 S) < 1, which diagonal dominance guarantees
     * (Li, Yang, Li 2016, Lemmas 1-2); it pays when T carries much of A */
    double share = A->nnz ? (double)band / (double)A->nnz : 0.0;
    if (A->nrows == A->ncols && share >= 0.5 && weak == n && strict > 0 && !zero_diag)
        printf("advice        quasi-tridiagonal and diagonally dominant: --solver hisa "
               "(or bhisa to solve T's blocks in parallel)\n");
    else if (A->nrows == A->ncols && share >= 0.5 && !zero_diag)
        printf("advice        quasi-tridiagonal but not diagonally dominant: hisa may diverge; "
               "--solver bicgstab --precond tridiag\n");
    cli_problem_free(&pb);
    return 0;
}
