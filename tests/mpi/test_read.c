/* SPDX-License-Identifier: BSD-3-Clause */
/* test_read.c: hpls_dcsr_read, run by mpiexec on 1-4 ranks (tests/mpi/run.sh).
 * The parallel read gives the distributed matrix of rank 0's read and
 * scatter, bit for bit on every rank (rows cut alike, Ad, Ao, ghosts), and
 * its rows are the one-process reader's (hpls_mm_read_csr): on general,
 * symmetric, skew-symmetric, pattern and integer files made here (duplicates
 * spread over the whole file, one whose sum depends on the order, explicit
 * zeros, blank and CRLF lines, a header past the reader's 1 MiB chunk, lines
 * so long that some ranks get no line) and on matrices of HPLS_DATA_DIR.  A
 * bad file, from tests/bad_inputs or made here with its fault far into the
 * file (on the last ranks), gives every rank the one-process reader's status
 * and message, file and line.  gzip and array files are read by rank 0.
 * Every check is agreed by all ranks before it may fail, so a failure fails
 * the test on every rank and none waits in a collective; rank 0 prints. */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include "mpi/dcsr.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static int rank, size;
static char dir[PATH_MAX]; /* this run's files, made by rank 0 */

/* 1 on every rank when ok is 1 on every rank. */
static int all(int ok)
{
    int every;
    MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return every;
}

/* ---- files ---------------------------------------------------------------- */

static unsigned long long rng = 88172645463325252ull;

static double uniform(void) /* in [0, 1), xorshift64 */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

typedef struct entry {
    hpls_int i, j; /* 1-based, as written */
    double v;
} entry;

typedef struct mfile {
    const char *symmetry;            /* general, symmetric, skew-symmetric */
    const char *field;               /* real, integer, pattern */
    hpls_int nrows, ncols, declared; /* declared < 0: the entries written */
    size_t comment;                  /* bytes of a comment line in the header */
    int pad;                         /* blanks after each entry */
    int no_final_newline;
    entry *e;
    hpls_int ne, cap;
} mfile;

static void add(mfile *f, hpls_int i, hpls_int j, double v)
{
    if (f->ne == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 1024;
        f->e = realloc(f->e, (size_t)f->cap * sizeof *f->e);
        if (!f->e)
            abort();
    }
    f->e[f->ne++] = (entry){i, j, v};
}

/* Rank 0 writes f as name in dir, with CRLF, blank lines and tabs here and
 * there; every rank gets the path.  Entries whose text is given (bad) are
 * written as that text instead: bad_at[k] = index, bad_text[k]. */
static const char *write_file(const char *name, const mfile *f, int nbad, const hpls_int *bad_at,
                              const char *const *bad_text, char *path, size_t len)
{
    if (snprintf(path, len, "%s/%s", dir, name) >= (int)len)
        abort(); /* every rank alike: the same dir and name */
    if (rank == 0) {
        FILE *out = fopen(path, "wb");
        if (!out)
            abort();
        fprintf(out, "%%%%MatrixMarket matrix coordinate %s %s\n", f->field, f->symmetry);
        if (f->comment) {
            fputc('%', out);
            for (size_t k = 0; k < f->comment; k++)
                fputc('c', out);
            fputc('\n', out);
        }
        fprintf(out, "%lld %lld %lld\n", (long long)f->nrows, (long long)f->ncols,
                (long long)(f->declared >= 0 ? f->declared : f->ne));
        for (hpls_int k = 0; k < f->ne; k++) {
            const entry *e = &f->e[k];
            if (k % 11 == 5)
                fputs("\n  \t\n", out); /* blank lines */
            const char *text = NULL;
            for (int b = 0; b < nbad; b++)
                if (bad_at[b] == k)
                    text = bad_text[b];
            if (text)
                fputs(text, out);
            else if (strcmp(f->field, "pattern") == 0)
                fprintf(out, "%lld%s%lld", (long long)e->i, k % 13 ? " " : "\t", (long long)e->j);
            else if (strcmp(f->field, "integer") == 0)
                fprintf(out, "%lld %lld %.0f", (long long)e->i, (long long)e->j, e->v);
            else
                fprintf(out, "%lld %lld %.17g", (long long)e->i, (long long)e->j, e->v);
            for (int p = 0; p < f->pad; p++)
                fputc(' ', out);
            if (k + 1 < f->ne || !f->no_final_newline)
                fputs(k % 7 == 3 ? "\r\n" : "\n", out);
        }
        fclose(out);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return path;
}

/* A random n x n pattern, about per_row entries a row, each written twice
 * (the second half of the file repeats the first in reverse with other
 * values, so an entry's parts lie with different ranks), row 7 left empty;
 * lower: only i >= j (i > j when strict). */
static void random_entries(mfile *f, hpls_int n, int per_row, int lower, int strict, int integer)
{
    hpls_int first = f->ne;
    for (hpls_int i = 1; i <= n; i++) {
        if (i == 7)
            continue;
        for (int k = 0; k < per_row; k++) {
            hpls_int j = 1 + (hpls_int)(uniform() * (double)n);
            if (lower && (j > i || (strict && j == i)))
                j = strict ? (i > 1 ? 1 + (hpls_int)(uniform() * (double)(i - 1)) : 0) : i;
            if (j < 1)
                continue;
            double v = integer ? floor(uniform() * 200.0) - 100.0 : 2.0 * uniform() - 1.0;
            add(f, i, j, k == 2 ? 0.0 : v); /* explicit zeros are kept */
        }
    }
    for (hpls_int k = f->ne - 1; k >= first; k--) {
        entry e = f->e[k];
        add(f, e.i, e.j, integer ? floor(uniform() * 10.0) : e.v * 0.5 + 0.25);
    }
}

/* ---- comparisons ---------------------------------------------------------- */

static int same_csr(const hpls_csr *A, const hpls_csr *B)
{
    return A->nrows == B->nrows && A->ncols == B->ncols && A->nnz == B->nnz &&
           memcmp(A->rowptr, B->rowptr, (size_t)(A->nrows + 1) * sizeof *A->rowptr) == 0 &&
           memcmp(A->colind, B->colind, (size_t)A->nnz * sizeof *A->colind) == 0 &&
           memcmp(A->val, B->val, (size_t)A->nnz * sizeof *A->val) == 0;
}

/* The same distributed matrix, bit for bit. */
static int same_dcsr(const hpls_dcsr *A, const hpls_dcsr *B)
{
    return A->n == B->n && A->first == B->first && A->nlocal == B->nlocal && A->nnz == B->nnz &&
           A->nghost == B->nghost &&
           memcmp(A->rowstart, B->rowstart, (size_t)(size + 1) * sizeof *A->rowstart) == 0 &&
           memcmp(A->garray, B->garray, (size_t)A->nghost * sizeof *A->garray) == 0 &&
           same_csr(A->Ad, B->Ad) && same_csr(A->Ao, B->Ao);
}

/* D's rows are rows first .. of the one-process matrix S, entry for entry
 * (Ad's and Ao's merged by global column). */
static int rows_match(const hpls_dcsr *D, const hpls_csr *S)
{
    if (S->nrows != D->n)
        return 0;
    const hpls_csr *Ad = D->Ad, *Ao = D->Ao;
    for (hpls_int i = 0; i < D->nlocal; i++) {
        hpls_int p = Ad->rowptr[i], pe = Ad->rowptr[i + 1];
        hpls_int q = Ao->rowptr[i], qe = Ao->rowptr[i + 1];
        hpls_int s = S->rowptr[D->first + i], se = S->rowptr[D->first + i + 1];
        if ((pe - p) + (qe - q) != se - s)
            return 0;
        for (; s < se; s++) {
            hpls_int jd = p < pe ? D->first + Ad->colind[p] : INT64_MAX;
            hpls_int jo = q < qe ? D->garray[Ao->colind[q]] : INT64_MAX;
            double v = jd < jo ? Ad->val[p++] : Ao->val[q++];
            if ((jd < jo ? jd : jo) != S->colind[s] || memcmp(&v, &S->val[s], sizeof v) != 0)
                return 0;
        }
    }
    return 1;
}

/* path read by rank 0 and in parallel: the same matrix on every rank, the one
 * the one-process reader gives, read the way expected (gzip and array files:
 * by rank 0). */
static void check_same(const char *path, hpls_read_mode expected)
{
    hpls_dcsr *R = NULL, *P = NULL;
    hpls_csr *S = NULL;
    char why[600] = "";
    hpls_status sr = hpls_dcsr_read(MPI_COMM_WORLD, path, HPLS_READ_ROOT, &R);
    if (sr != HPLS_OK)
        snprintf(why, sizeof why, "root read: %s", hpls_last_error());
    hpls_status sp = hpls_dcsr_read(MPI_COMM_WORLD, path, HPLS_READ_PARALLEL, &P);
    if (sp != HPLS_OK)
        snprintf(why, sizeof why, "parallel read: %s", hpls_last_error());
    hpls_status ss = hpls_mm_read_csr(path, &S);
    int ok = sr == HPLS_OK && sp == HPLS_OK && ss == HPLS_OK;
    if (ok && !same_dcsr(R, P))
        snprintf(why, sizeof why, "rank %d: the two reads differ", rank);
    else if (ok && !rows_match(P, S))
        snprintf(why, sizeof why, "rank %d: the rows differ from the one-process read", rank);
    else if (ok && (hpls_dcsr_read_mode(P) != expected || hpls_dcsr_read_mode(R) != HPLS_READ_ROOT))
        snprintf(why, sizeof why, "rank %d: read mode %d, expected %d", rank,
                 (int)hpls_dcsr_read_mode(P), (int)expected);
    ok = ok && !why[0] && P->nnz == S->nnz;
    int every = all(ok);
    if (!every && !ok)
        fprintf(stderr, "%s: %s\n", path, why[0] ? why : "nnz differs");
    hpls_dcsr_destroy(R);
    hpls_dcsr_destroy(P);
    hpls_csr_destroy(S);
    if (!every)
        fail_msg("%s: the parallel read differs (rank 0: %s)", path, why);
}

/* Messages equal, but a memory estimate ("... needs 7.2 GB, more than ...")
 * is the whole matrix's in one process and a rank's share in parallel. */
static int same_message(const char *a, const char *b)
{
    const char *na = strstr(a, " needs "), *nb = strstr(b, " needs ");
    if (na && nb)
        return na - a == nb - b && strncmp(a, b, (size_t)(na - a)) == 0;
    return strcmp(a, b) == 0;
}

/* A bad path: the parallel read fails on every rank with the status and the
 * message of the one-process reader (want: HPLS_OK to take that one, else
 * the status wanted with msg in the message, for faults of the distributed
 * read itself). */
static void check_fault(const char *path, hpls_status want, const char *msg)
{
    hpls_csr *S = NULL;
    hpls_status ss = hpls_mm_read_csr(path, &S);
    char m1[600], m2[600];
    snprintf(m1, sizeof m1, "%s", hpls_last_error());
    hpls_csr_destroy(S);
    hpls_dcsr *P = NULL;
    hpls_status sp = hpls_dcsr_read(MPI_COMM_WORLD, path, HPLS_READ_PARALLEL, &P);
    snprintf(m2, sizeof m2, "%s", hpls_last_error());
    int ok = want == HPLS_OK ? ss != HPLS_OK && sp == ss && same_message(m1, m2)
                             : sp == want && strstr(m2, msg) != NULL;
    int every = all(ok);
    if (!every && !ok)
        fprintf(stderr, "rank %d: %s: one process: %d \"%s\"\n  parallel: %d \"%s\"\n", rank, path,
                (int)ss, m1, (int)sp, m2);
    hpls_dcsr_destroy(P);
    if (!every)
        fail_msg("%s: the parallel read's fault differs from the one-process reader's", path);
}

/* ---- tests ---------------------------------------------------------------- */

static void parallel_read_equals_root_read_on_every_kind_of_file(void **state)
{
    (void)state;
    char path[PATH_MAX];
    struct {
        const char *name, *symmetry, *field;
        hpls_int n;
        int per_row, lower, strict;
    } kinds[] = {
        {"general.mtx", "general", "real", 500, 6, 0, 0},
        {"symmetric.mtx", "symmetric", "real", 400, 5, 1, 0},
        {"skew.mtx", "skew-symmetric", "real", 400, 5, 1, 1},
        {"pattern_sym.mtx", "symmetric", "pattern", 300, 4, 1, 0},
        {"pattern.mtx", "general", "pattern", 300, 4, 0, 0},
        {"integer.mtx", "general", "integer", 300, 5, 0, 0},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        mfile f = {.symmetry = kinds[k].symmetry, .field = kinds[k].field, .declared = -1};
        f.nrows = f.ncols = kinds[k].n;
        int integer = strcmp(f.field, "integer") == 0;
        if (!kinds[k].strict)
            add(&f, 3, 3, 1e16); /* summed in file order: (1e16 + 1) - 1e16 = 0, not 1 */
        random_entries(&f, kinds[k].n, kinds[k].per_row, kinds[k].lower, kinds[k].strict, integer);
        if (!kinds[k].strict) {
            entry mid = f.e[f.ne / 2];
            f.e[f.ne / 2] = (entry){3, 3, 1.0};
            add(&f, mid.i, mid.j, mid.v);
            add(&f, 3, 3, -1e16);
        }
        if (kinds[k].strict)
            add(&f, 5, 5, 0.0); /* a skew diagonal may hold an explicit zero */
        check_same(write_file(kinds[k].name, &f, 0, NULL, NULL, path, sizeof path),
                   HPLS_READ_PARALLEL);
        free(f.e);
    }
}

/* A general real n x n file of per_row random entries a row (none: 0), laid
 * out as shape says (comment, pad, no_final_newline): read alike in parallel. */
static void random_case(const char *name, hpls_int n, int per_row, mfile shape)
{
    char path[PATH_MAX];
    shape.symmetry = "general";
    shape.field = "real";
    shape.nrows = shape.ncols = n;
    shape.declared = -1;
    if (per_row > 0)
        random_entries(&shape, n, per_row, 0, 0, 0);
    check_same(write_file(name, &shape, 0, NULL, NULL, path, sizeof path), HPLS_READ_PARALLEL);
    free(shape.e);
}

static void parallel_read_handles_long_headers_lines_and_files(void **state)
{
    (void)state;
    char path[PATH_MAX];
    /* 100000 entries after a header of 1.5 MiB: offsets past the first chunk,
     * and every range read in several chunks */
    random_case("big.mtx", 20000, 3, (mfile){.comment = 1536 * 1024});
    /* 40 lines of 3000 bytes: most ranks' nominal ranges hold no line start */
    random_case("wide.mtx", 20, 1, (mfile){.pad = 3000});
    /* the last line without its newline; one entry; none */
    random_case("tail.mtx", 30, 2, (mfile){.no_final_newline = 1});
    mfile one = {.symmetry = "general", .field = "real", .nrows = 1, .ncols = 1, .declared = -1};
    add(&one, 1, 1, 2.5);
    check_same(write_file("one.mtx", &one, 0, NULL, NULL, path, sizeof path), HPLS_READ_PARALLEL);
    free(one.e);
    random_case("none.mtx", 5, 0, (mfile){0});
}

static void gzip_and_array_files_are_read_by_rank_0(void **state)
{
    (void)state;
    char path[PATH_MAX + 64], gz[PATH_MAX + 80];
    mfile f = {.symmetry = "general", .field = "real", .nrows = 50, .ncols = 50, .declared = -1};
    random_entries(&f, 50, 3, 0, 0, 0);
    write_file("plain.mtx", &f, 0, NULL, NULL, path, sizeof path);
    free(f.e);
    snprintf(gz, sizeof gz, "%s.gz", path);
    if (rank == 0) { /* the same text, compressed */
        FILE *in = fopen(path, "rb");
        gzFile out = gzopen(gz, "wb");
        char buf[4096];
        size_t n;
        while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
            gzwrite(out, buf, (unsigned)n);
        if (in)
            fclose(in);
        if (out)
            gzclose(out);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    check_same(gz, HPLS_READ_ROOT);
    snprintf(path, sizeof path, "%s/array.mtx", dir);
    if (rank == 0) {
        FILE *out = fopen(path, "wb");
        fputs("%%MatrixMarket matrix array real general\n3 3\n4\n-1\n0\n-1\n4\n-1\n0\n-1\n4\n",
              out);
        fclose(out);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    check_same(path, HPLS_READ_ROOT);
    /* AUTO: a small file is read by rank 0 */
    hpls_dcsr *D = NULL;
    hpls_status st = hpls_dcsr_read(MPI_COMM_WORLD, path, HPLS_READ_AUTO, &D);
    int ok = all(st == HPLS_OK && hpls_dcsr_read_mode(D) == HPLS_READ_ROOT);
    hpls_dcsr_destroy(D);
    if (!ok)
        fail_msg("AUTO read a small file in parallel");
}

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void bad_inputs_give_the_serial_message_on_every_rank(void **state)
{
    (void)state;
    char bad[PATH_MAX], path[PATH_MAX + 300];
    const char *tests = getenv("HPLS_TEST_DIR");
    snprintf(bad, sizeof bad, "%s/bad_inputs", tests ? tests : "tests");
    DIR *d = opendir(bad);
    int found = all(d != NULL);
    if (!found) {
        if (d)
            closedir(d);
        fail_msg("no %s", bad);
    }
    /* the names in order, the same on every rank */
    char names[128][sizeof((struct dirent *)0)->d_name]; /* room for any name */
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 128;)
        if (strncmp(e->d_name, "mm_", 3) == 0)
            snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    int faults = 0;
    for (int k = 0; k < n; k++) {
        if (snprintf(path, sizeof path, "%s/%s", bad, names[k]) >= (int)sizeof path)
            fail_msg("%s: path too long", names[k]);
        hpls_csr *S = NULL;
        hpls_status ss = hpls_mm_read_csr(path, &S);
        hpls_csr_destroy(S);
        if (ss == HPLS_OK) { /* mm_crlf_ok */
            check_same(path, HPLS_READ_PARALLEL);
        } else {
            check_fault(path, HPLS_OK, NULL);
            faults++;
        }
    }
    if (!all(faults >= 40))
        fail_msg("only %d bad files in %s", faults, bad);
}

/* Faults placed far into a file of 20000 entries, where the last ranks parse. */
static void faults_deep_in_the_file_name_their_line(void **state)
{
    (void)state;
    char path[PATH_MAX];
    mfile f = {
        .symmetry = "general", .field = "real", .nrows = 4000, .ncols = 4000, .declared = -1};
    random_entries(&f, 4000, 3, 0, 0, 0);
    hpls_int ne = f.ne;
    struct {
        const char *name;
        int nbad;
        hpls_int at[2];
        const char *text[2];
    } cases[] = {
        {"value_deep.mtx", 1, {ne * 9 / 10}, {"5 5 1.5x"}},
        {"two_faults.mtx", 2, {ne / 10, ne * 9 / 10}, {"0 5 1", "5 5 nan"}},
        {"column_deep.mtx", 1, {ne - 2}, {"5 4001 1"}},
        {"short_deep.mtx", 1, {ne * 3 / 4}, {"5 5"}},
        {"trailing_deep.mtx", 1, {ne * 2 / 3}, {"5 5 1 7"}},
        {"token_deep.mtx",
         1,
         {ne / 2},
         {"5 5 1234567890123456789012345678901234567890123456789012"
          "3456789012345678901234567890123456789012345678901"}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_fault(write_file(cases[k].name, &f, cases[k].nbad, cases[k].at, cases[k].text, path,
                               sizeof path),
                    HPLS_OK, NULL);
    f.declared = ne - 1; /* the last entry is one too many */
    check_fault(write_file("too_many.mtx", &f, 0, NULL, NULL, path, sizeof path), HPLS_OK, NULL);
    f.declared = ne / 2; /* the one too many is in the middle */
    check_fault(write_file("too_many_mid.mtx", &f, 0, NULL, NULL, path, sizeof path), HPLS_OK,
                NULL);
    f.declared = ne + 5;
    check_fault(write_file("too_few.mtx", &f, 0, NULL, NULL, path, sizeof path), HPLS_OK, NULL);
    f.no_final_newline = 1;
    check_fault(write_file("too_few_no_newline.mtx", &f, 0, NULL, NULL, path, sizeof path), HPLS_OK,
                NULL);
    f.declared = -1;
    f.no_final_newline = 0;
    /* duplicates whose sum overflows: the first in row order is named */
    f.e[0] = (entry){3000, 1, 1e308};
    f.e[1] = (entry){5, 5, 1e308};
    f.e[ne - 2] = (entry){5, 5, 1e308};
    f.e[ne - 1] = (entry){3000, 1, 1e308};
    check_fault(write_file("dup_inf.mtx", &f, 0, NULL, NULL, path, sizeof path), HPLS_OK, NULL);
    free(f.e);
    mfile s = {
        .symmetry = "symmetric", .field = "real", .nrows = 3000, .ncols = 3000, .declared = -1};
    random_entries(&s, 3000, 3, 1, 0, 0);
    hpls_int up[1] = {s.ne * 4 / 5};
    const char *upper[1] = {"2 3000 1"};
    check_fault(write_file("upper_deep.mtx", &s, 1, up, upper, path, sizeof path), HPLS_OK, NULL);
    free(s.e);
    /* read fine in one process, but a distributed matrix must be square */
    mfile rect = {.symmetry = "general", .field = "real", .nrows = 40, .ncols = 50, .declared = -1};
    random_entries(&rect, 40, 3, 0, 0, 0);
    check_fault(write_file("rect.mtx", &rect, 0, NULL, NULL, path, sizeof path), HPLS_ERR_SIZE,
                "a 40 x 50 matrix: a distributed matrix must be square");
    free(rect.e);
}

static void data_matrices_read_alike(void **state)
{
    (void)state;
    static const char *names[] = {"sherman1.mtx", "gr_30_30.mtx",  "bcsstk13.mtx", "bayer10.mtx",
                                  "orani678.mtx", "plat362.mtx",   "add32.mtx",    "e05r0000.mtx",
                                  "west0479.mtx", "memplus.mtx.gz"};
    char path[PATH_MAX], rel[128];
    int read = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        snprintf(rel, sizeof rel, "matrices/%s", names[k]);
        if (!all(tu_data_path(rel, path, sizeof path)))
            continue;
        check_same(path, strstr(names[k], ".gz") ? HPLS_READ_ROOT : HPLS_READ_PARALLEL);
        read++;
    }
    if (read == 0)
        skip();
}

static void public_calls_check_their_arguments(void **state)
{
    (void)state;
    hpls_dcsr *D = NULL;
    int ok = hpls_dcsr_read(MPI_COMM_NULL, "x.mtx", HPLS_READ_ROOT, &D) == HPLS_ERR_ARG &&
             hpls_dcsr_read(MPI_COMM_WORLD, NULL, HPLS_READ_ROOT, &D) == HPLS_ERR_ARG &&
             hpls_dcsr_read(MPI_COMM_WORLD, "x.mtx", (hpls_read_mode)7, &D) == HPLS_ERR_ARG &&
             hpls_dcsr_scatter(MPI_COMM_WORLD, size, NULL, &D) == HPLS_ERR_ARG &&
             hpls_dcsr_get_sizes(NULL, NULL, NULL, NULL, NULL) == HPLS_ERR_ARG && D == NULL;
    /* rank 1 alone gives a bad row: every rank fails with its message */
    hpls_int rp[2] = {0, 1}, col[1] = {rank == 1 ? -3 : rank}, n = size;
    hpls_real val[1] = {1.0};
    hpls_status st = hpls_dcsr_create(MPI_COMM_WORLD, n, 1, rp, col, val, &D);
    ok = ok && (size == 1 ? st == HPLS_OK
                          : st == HPLS_ERR_SIZE && strstr(hpls_last_error(), "column -2"));
    hpls_dcsr_destroy(D);
    if (!all(ok))
        fail_msg("a public call took a bad argument");
}

/* y = A x distributed against the one-process product. */
static void spmv_matches_one_process(void **state)
{
    (void)state;
    char path[PATH_MAX];
    mfile f = {
        .symmetry = "general", .field = "real", .nrows = 2000, .ncols = 2000, .declared = -1};
    random_entries(&f, 2000, 5, 0, 0, 0);
    write_file("spmv.mtx", &f, 0, NULL, NULL, path, sizeof path);
    free(f.e);
    hpls_dcsr *D = NULL;
    hpls_csr *S = NULL;
    hpls_vec *x = NULL, *y = NULL;
    int ok = hpls_dcsr_read(MPI_COMM_WORLD, path, HPLS_READ_PARALLEL, &D) == HPLS_OK &&
             hpls_mm_read_csr(path, &S) == HPLS_OK && hpls_vec_create(S->ncols, &x) == HPLS_OK &&
             hpls_vec_create(S->nrows, &y) == HPLS_OK;
    hpls_int n = 0, first = 0, nlocal = 0, nnz = 0;
    if (ok) {
        for (hpls_int i = 0; i < x->n; i++)
            x->data[i] = sin((double)i);
        hpls_csr_spmv(S, x, y);
        hpls_dcsr_get_sizes(D, &n, &first, &nlocal, &nnz);
        ok = n == S->nrows && nnz == S->nnz;
    }
    hpls_real *mine = calloc((size_t)nlocal + 1, sizeof *mine);
    if (all(ok) && hpls_dcsr_spmv(D, x->data + first, mine) == HPLS_OK) {
        for (hpls_int i = 0; i < nlocal; i++)
            ok = ok &&
                 fabs(mine[i] - y->data[first + i]) <= 1e-14 * (1.0 + fabs(y->data[first + i]));
    } else {
        ok = 0;
    }
    free(mine);
    hpls_dcsr_destroy(D);
    hpls_csr_destroy(S);
    hpls_vec_destroy(x);
    hpls_vec_destroy(y);
    if (!all(ok))
        fail_msg("hpls_dcsr_spmv differs from the one-process product");
}

/* The files of this run in a directory of their own (ranks of np1..np4 may
 * run at once), removed at the end. */
static int make_dir(void **state)
{
    (void)state;
    const char *tmp = getenv("HPLS_TMP");
    if (rank == 0) {
        snprintf(dir, sizeof dir, "%s/mpi_read.XXXXXX", tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))
            dir[0] = '\0';
    }
    MPI_Bcast(dir, (int)sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    return dir[0] ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        DIR *d = opendir(dir);
        char path[PATH_MAX + 300];
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        if (d)
            closedir(d);
        rmdir(dir);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0 && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)))
        MPI_Abort(MPI_COMM_WORLD, 2);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parallel_read_equals_root_read_on_every_kind_of_file),
        cmocka_unit_test(parallel_read_handles_long_headers_lines_and_files),
        cmocka_unit_test(gzip_and_array_files_are_read_by_rank_0),
        cmocka_unit_test(bad_inputs_give_the_serial_message_on_every_rank),
        cmocka_unit_test(faults_deep_in_the_file_name_their_line),
        cmocka_unit_test(data_matrices_read_alike),
        cmocka_unit_test(public_calls_check_their_arguments),
        cmocka_unit_test(spmv_matches_one_process),
    };
    int failed = cmocka_run_group_tests(tests, make_dir, remove_dir);
    MPI_Finalize();
    return failed;
}
