/* SPDX-License-Identifier: BSD-3-Clause */
/* mmio_dist.c: one Matrix Market file read into a distributed matrix
 * (hpls_dcsr_read, hpls_mpi.h), by rank 0 or by every rank in parallel.
 *
 * In parallel, every rank parses a byte range of the file with mmio.c's own
 * parser (io/mm_parse.h): every check and every message is the one-process
 * reader's, and the matrix is the one rank 0's read and scatter give.
 *   1. Rank 0 reads the header (banner, size line) and says where the
 *      entries start; their bytes are cut into P equal ranges, each moved on
 *      to the start of a line.
 *   2. Each rank counts the lines and the entry lines of its range; an
 *      MPI_Exscan gives the number of its first line and the index of its
 *      first entry, so a fault and entry N+1 are named as the serial reader
 *      names them.
 *   3. Each rank parses its range into triplets (symmetric storage
 *      mirrored).  The lowest failing rank's fault is the first in the file:
 *      its message goes to every rank.
 *   4. The triplets go to provisional owners, row blocks of about equal
 *      triplets (from a histogram over 64 row buckets per rank), sent and
 *      received in rank order, so each row's triplets arrive in file order and
 *      hpls_csr_from_coo sums its duplicates as the serial reader does, bit
 *      for bit.
 *   5. The cut of hpls_dcsr_scatter (rank q's first row is the first whose
 *      entries start at or past q nnz / P) from the merged rows' lengths, the
 *      rows moved to their owners, hpls_dcsr_create.
 * Memory per rank: its triplets up to three times (parsed, packed, received)
 * and its rows, O(nnz/P), a 1 MiB read buffer and O(P) counts; no array of n.
 * MPI counts are ints: one rank sends or receives at most 2^31 - 1 entries
 * in one exchange.
 *
 * A gzip file cannot be read from an offset, and an array file gives a
 * value's place only by counting from the start: rank 0 reads those and
 * scatters them, as HPLS_READ_ROOT does. */
#define _POSIX_C_SOURCE 200809L

#include "io/mm_parse.h"
#include "mpi/dcsr.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* HPLS_READ_AUTO reads a plain coordinate file of this size or more in
 * parallel: a smaller one is parsed by one rank in a fraction of a second,
 * less than the parallel read's two passes and three exchanges cost. */
#define PARALLEL_MIN_BYTES ((int64_t)32 << 20)
/* Row buckets per rank of the histogram that places the provisional blocks. */
#define BUCKETS_PER_RANK 64

/* What rank 0 learns from the header, for every rank (all int64_t: one
 * MPI_Bcast). */
typedef struct plan {
    int64_t parallel;                                          /* 1: read in parallel */
    int64_t field, symmetry, nrows, ncols, entries, size_line; /* hpls_mm_header's */
    int64_t data, data_line; /* offset and line number of the first byte after the size line */
    int64_t file_size;
} plan;

/* The status of the lowest failing rank, with its message as it stands, on
 * every rank.  A fault names the file and line; which rank read it is no news
 * (hpls_mpi_agree would prefix "rank R: "), so the message is the serial
 * reader's. */
static hpls_status agree(MPI_Comm comm, hpls_status st)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int mine[2] = {st == HPLS_OK ? INT_MAX : rank, (int)st}, first[2];
    MPI_Allreduce(mine, first, 1, MPI_2INT, MPI_MINLOC, comm);
    if (first[0] == INT_MAX)
        return HPLS_OK;
    char text[512];
    if (rank == first[0])
        snprintf(text, sizeof text, "%s", hpls_last_error());
    MPI_Bcast(text, (int)sizeof text, MPI_CHAR, first[0], comm);
    return hpls_fail((hpls_status)first[1], "%s", text);
}

/* MPI counts and displacements are ints. */
static hpls_status fits_int(hpls_int count, int rank, const char *what)
{
    if (count <= INT_MAX)
        return HPLS_OK;
    return hpls_fail(HPLS_ERR_SIZE,
                     "rank %d: %lld %s in one exchange (MPI counts are ints: %d at most)", rank,
                     (long long)count, what, INT_MAX);
}

static hpls_status square(const char *path, hpls_int nrows, hpls_int ncols)
{
    if (nrows == ncols)
        return HPLS_OK;
    return hpls_fail(HPLS_ERR_SIZE, "%s: a %lld x %lld matrix: a distributed matrix must be square",
                     path, (long long)nrows, (long long)ncols);
}

static hpls_int clamp(hpls_int v, hpls_int lo, hpls_int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The last q with start[q] <= row: the owner of row (start: size + 1 increasing). */
static int owner_of(const hpls_int *start, int size, hpls_int row)
{
    int lo = 0, hi = size - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (start[mid] <= row)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Rank 0 reads the matrix and scatters it (HPLS_READ_ROOT). */
static hpls_status read_root(MPI_Comm comm, const char *path, hpls_dcsr **D)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    hpls_csr *A = NULL;
    hpls_status st = HPLS_OK;
    if (rank == 0 && (st = hpls_mm_read_csr(path, &A)) == HPLS_OK)
        st = square(path, A->nrows, A->ncols);
    if ((st = agree(comm, st)) == HPLS_OK && (st = hpls_dcsr_scatter(comm, 0, A, D)) == HPLS_OK)
        (*D)->read = HPLS_READ_ROOT;
    hpls_csr_destroy(A);
    return st;
}

/* Rank 0: the header, and whether the file is read in parallel. */
static hpls_status read_plan(const char *path, hpls_read_mode mode, int size, plan *p)
{
    hpls_mm_reader r;
    hpls_mm_header h = {0};
    struct stat sb = {0};
    hpls_status st = hpls_mm_open(&r, path);
    if (st == HPLS_OK)
        st = hpls_mm_read_header(&r, &h);
    if (st == HPLS_OK && stat(path, &sb) != 0)
        st = hpls_fail(HPLS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (st == HPLS_OK) {
        int cuttable = hpls_mm_plain(&r) && !h.array;
        *p = (plan){.parallel = cuttable && (mode == HPLS_READ_PARALLEL ||
                                             (size > 1 && sb.st_size >= PARALLEL_MIN_BYTES)),
                    .field = h.field,
                    .symmetry = h.symmetry,
                    .nrows = h.nrows,
                    .ncols = h.ncols,
                    .entries = h.entries,
                    .size_line = h.size_line,
                    .data = hpls_mm_offset(&r),
                    .data_line = r.line,
                    .file_size = sb.st_size};
        /* a rank's share: its triplets three times at the peak (parsed, packed,
         * received: 24 bytes each), its merged rows and their move (12 + 20),
         * the blocks (12) */
        double stored = (double)h.entries * (h.symmetry == HPLS_MM_GENERAL ? 1 : 2);
        if (p->parallel)
            st = hpls_mm_check_memory(&r, &h,
                                      stored / size * 116.0 + ((double)h.nrows / size + 1) * 24.0);
    }
    hpls_mm_close(&r);
    return st;
}

/* My byte range [*begin, *end) of the entries: the P equal ranges, each
 * moved on to the first line that starts in it (or after it). */
static hpls_status my_range(MPI_Comm comm, const char *path, const plan *p, int64_t *begin,
                            int64_t *end)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int64_t a = p->data + (p->file_size - p->data) * rank / size, start = p->data;
    hpls_status st = HPLS_OK;
    if (a > p->data) { /* past the newline at or after byte a - 1 */
        hpls_mm_reader r;
        if ((st = hpls_mm_open_range(&r, path, a - 1, p->file_size, 0)) == HPLS_OK &&
            (st = hpls_mm_skip_line(&r)) == HPLS_OK)
            start = hpls_mm_offset(&r);
        hpls_mm_close(&r);
    }
    int64_t *starts = hpls_malloc(size, sizeof *starts);
    if (!starts && st == HPLS_OK)
        st = HPLS_ERR_NOMEM;
    if ((st = agree(comm, st)) == HPLS_OK) {
        MPI_Allgather(&start, 1, MPI_INT64_T, starts, 1, MPI_INT64_T, comm);
        *begin = start;
        *end = rank + 1 < size ? starts[rank + 1] : p->file_size;
    }
    hpls_free(starts);
    return st;
}

/* The triplets of my range's entries (s, expanded under symmetric storage),
 * parsed by mmio.c's parser from the right line number and entry index;
 * every rank's outcome agreed.  *lines, *entries: the whole file's newlines
 * and entry lines after the header. */
static hpls_status parse_range(MPI_Comm comm, const char *path, const plan *p,
                               const hpls_mm_header *h, hpls_mm_sink *s, hpls_int *lines,
                               hpls_int *entries)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int64_t begin = 0, end = 0;
    hpls_status st = my_range(comm, path, p, &begin, &end);
    if (st != HPLS_OK)
        return st;
    hpls_int mine[2] = {0, 0}, before[2] = {0, 0}, total[2] = {0, 0}; /* newlines, entry lines */
    hpls_mm_reader r;
    if ((st = hpls_mm_open_range(&r, path, begin, end, 0)) == HPLS_OK)
        st = hpls_mm_count_lines(&r, &mine[0], &mine[1]);
    hpls_mm_close(&r);
    if ((st = agree(comm, st)) != HPLS_OK)
        return st;
    MPI_Exscan(mine, before, 2, MPI_INT64_T, MPI_SUM, comm);
    MPI_Allreduce(mine, total, 2, MPI_INT64_T, MPI_SUM, comm);
    if (rank == 0)
        before[0] = before[1] = 0; /* MPI_Exscan leaves rank 0's undefined */
    *lines = total[0];
    *entries = total[1];
    /* entries k0 .. of the file are mine; the one of index h->entries is one
     * too many (an error here), and past it another rank has failed first */
    hpls_int k0 = before[1], room = h->entries - k0 < mine[1] ? h->entries - k0 : mine[1];
    if (k0 <= h->entries && mine[1] > 0) {
        hpls_int cap = room * (h->symmetry == HPLS_MM_GENERAL ? 1 : 2);
        s->rows = hpls_malloc(cap, sizeof *s->rows);
        s->cols = hpls_malloc(cap, sizeof *s->cols);
        s->vals = hpls_malloc(cap, sizeof *s->vals);
        if (!s->rows || !s->cols || !s->vals) {
            st = hpls_fail(HPLS_ERR_NOMEM, "%s: rank %d: no memory for %lld entries", path, rank,
                           (long long)cap);
        } else {
            hpls_int k;
            st = hpls_mm_open_range(&r, path, begin, end, (long)(p->data_line + before[0]));
            if (st == HPLS_OK)
                st = hpls_mm_read_entries(&r, h, k0, s, &k);
            hpls_mm_close(&r);
        }
    }
    return agree(comm, st);
}

/* prow[q]: the first row of provisional owner q, so that the owners get about
 * equal triplets: rows in nb buckets (row i in bucket i nb / n), hist the
 * triplets of each over all ranks; owner q's first bucket is the first whose
 * triplets start at or past q total / P. */
static void split_buckets(const hpls_int *hist, hpls_int nb, hpls_int n, int size, hpls_int *prow)
{
    hpls_int total = 0, before = 0, b = 0;
    for (hpls_int k = 0; k < nb; k++)
        total += hist[k];
    for (int q = 0; q < size; q++) {
        double target = (double)total * q / size;
        while (b < nb && (double)before < target)
            before += hist[b++];
        prow[q] = nb > 0 ? (b * n + nb - 1) / nb : 0; /* bucket b's first row */
    }
    prow[size] = n;
}

/* The triplets of s to their provisional owners, packed by owner and each
 * owner's in file order (a stable counting sort), exchanged in rank order,
 * then my rows prow[me] .. prow[me+1]-1 assembled (*B: duplicates summed in
 * file order, as the serial reader sums them, and checked finite).  s is
 * emptied; prow: size + 1 entries. */
static hpls_status to_provisional(MPI_Comm comm, const char *path, const hpls_mm_header *h,
                                  hpls_mm_sink *s, hpls_int *prow, hpls_csr **B)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    hpls_int n = h->nrows,
             nb = n < (hpls_int)size * BUCKETS_PER_RANK ? n : (hpls_int)size * BUCKETS_PER_RANK;
    hpls_int *hist = hpls_calloc(nb + 1, sizeof *hist), *sr = NULL, *sc = NULL, *rr = NULL,
             *rc = NULL;
    hpls_real *sv = NULL, *rv = NULL;
    int *scount = hpls_calloc(size, sizeof *scount), *rcount = hpls_calloc(size, sizeof *rcount);
    int *sdisp = hpls_calloc(size + 1, sizeof *sdisp),
        *rdisp = hpls_calloc(size + 1, sizeof *rdisp);
    int *next = hpls_calloc(size, sizeof *next);
    hpls_int got = 0;
    hpls_status st = hist && scount && rcount && sdisp && rdisp && next
                         ? fits_int(s->n, rank, "entries")
                         : HPLS_ERR_NOMEM;
    if ((st = agree(comm, st)) != HPLS_OK)
        goto done;
    for (hpls_int t = 0; t < s->n; t++)
        hist[s->rows[t] * nb / n]++;
    MPI_Allreduce(MPI_IN_PLACE, hist, (int)nb, MPI_INT64_T, MPI_SUM, comm);
    split_buckets(hist, nb, n, size, prow);
    for (hpls_int t = 0; t < s->n; t++)
        scount[owner_of(prow, size, s->rows[t])]++;
    for (int q = 0; q < size; q++)
        sdisp[q + 1] = sdisp[q] + scount[q];
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm);
    for (int q = 0; q < size; q++)
        got += rcount[q];
    if ((st = fits_int(got, rank, "entries")) == HPLS_OK) {
        for (int q = 0; q < size; q++)
            rdisp[q + 1] = rdisp[q] + rcount[q];
        sr = hpls_malloc(s->n, sizeof *sr);
        sc = hpls_malloc(s->n, sizeof *sc);
        sv = hpls_malloc(s->n, sizeof *sv);
        rr = hpls_malloc(got, sizeof *rr);
        rc = hpls_malloc(got, sizeof *rc);
        rv = hpls_malloc(got, sizeof *rv);
        if (!sr || !sc || !sv || !rr || !rc || !rv)
            st = hpls_fail(HPLS_ERR_NOMEM, "%s: rank %d: no memory to move %lld entries", path,
                           rank, (long long)(s->n + got));
    }
    if ((st = agree(comm, st)) != HPLS_OK)
        goto done;
    memcpy(next, sdisp, (size_t)size * sizeof *next);
    for (hpls_int t = 0; t < s->n; t++) {
        int p = next[owner_of(prow, size, s->rows[t])]++;
        sr[p] = s->rows[t];
        sc[p] = s->cols[t];
        sv[p] = s->vals[t];
    }
    hpls_free(s->rows);
    hpls_free(s->cols);
    hpls_free(s->vals);
    s->rows = s->cols = NULL;
    s->vals = NULL;
    MPI_Alltoallv(sr, scount, sdisp, MPI_INT64_T, rr, rcount, rdisp, MPI_INT64_T, comm);
    MPI_Alltoallv(sc, scount, sdisp, MPI_INT64_T, rc, rcount, rdisp, MPI_INT64_T, comm);
    MPI_Alltoallv(sv, scount, sdisp, MPI_DOUBLE, rv, rcount, rdisp, MPI_DOUBLE, comm);
    hpls_free(sr);
    hpls_free(sc);
    hpls_free(sv);
    sr = sc = NULL;
    sv = NULL;
    for (hpls_int t = 0; t < got; t++)
        rr[t] -= prow[rank];
    st = hpls_csr_from_coo(prow[rank + 1] - prow[rank], h->ncols, got, rr, rc, rv, B);
    if (st == HPLS_OK)
        st = hpls_mm_check_sums(path, *B, prow[rank]);
    st = agree(comm, st);
done:
    hpls_free(hist);
    hpls_free(scount);
    hpls_free(rcount);
    hpls_free(sdisp);
    hpls_free(rdisp);
    hpls_free(next);
    hpls_free(sr);
    hpls_free(sc);
    hpls_free(sv);
    hpls_free(rr);
    hpls_free(rc);
    hpls_free(rv);
    if (st != HPLS_OK) {
        hpls_csr_destroy(*B);
        *B = NULL;
    }
    return st;
}

/* The cut of hpls_dcsr_scatter from the provisional rows *B (rows prow[me]
 * .., freed here), the rows sent to their owners, and D built from mine. */
static hpls_status to_owners(MPI_Comm comm, hpls_int n, const hpls_int *prow, hpls_csr **B,
                             hpls_dcsr **D)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const hpls_csr *M = *B;
    hpls_int plo = prow[rank], m = M->nrows, mine = M->nnz, off = 0, total = 0;
    hpls_int *cut = hpls_malloc(size + 1, sizeof *cut), *len = hpls_malloc(m, sizeof *len);
    hpls_int *rp = NULL, *gc = NULL;
    hpls_idx *c32 = NULL;
    hpls_real *v = NULL;
    /* rows and entries to and from each rank, and where they start */
    int *sr = hpls_malloc(size, sizeof *sr), *sdr = hpls_malloc(size, sizeof *sdr);
    int *se = hpls_malloc(size, sizeof *se), *sde = hpls_malloc(size, sizeof *sde);
    int *rr = hpls_malloc(size, sizeof *rr), *rdr = hpls_malloc(size, sizeof *rdr);
    int *re = hpls_malloc(size, sizeof *re), *rde = hpls_malloc(size, sizeof *rde);
    hpls_status st =
        cut && len && sr && sdr && se && sde && rr && rdr && re && rde ? HPLS_OK : HPLS_ERR_NOMEM;
    if (st == HPLS_OK && (st = fits_int(m, rank, "rows")) == HPLS_OK)
        st = fits_int(mine, rank, "entries");
    if ((st = agree(comm, st)) != HPLS_OK)
        goto done;
    MPI_Exscan(&mine, &off, 1, MPI_INT64_T, MPI_SUM, comm);
    MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, comm);
    if (rank == 0)
        off = 0;
    /* cut_rows's rule on the whole matrix's row pointers off + M->rowptr[i]:
     * the first row past each target, the lowest over the ranks */
    hpls_int i = 0;
    for (int q = 0; q < size; q++) {
        double target = (double)total * q / size;
        while (i < m && (double)(off + M->rowptr[i]) < target)
            i++;
        cut[q] = i < m ? plo + i : n;
    }
    MPI_Allreduce(MPI_IN_PLACE, cut, size, MPI_INT64_T, MPI_MIN, comm);
    cut[size] = n;
    hpls_int first = cut[rank], mf = cut[rank + 1] - first; /* my rows in the end */
    for (int q = 0; q < size; q++) {
        /* to rank q: my rows in its block (contiguous, in rank order) */
        hpls_int lo = clamp(cut[q], plo, plo + m) - plo, hi = clamp(cut[q + 1], plo, plo + m) - plo;
        sr[q] = (int)(hi - lo);
        sdr[q] = (int)lo;
        se[q] = (int)(M->rowptr[hi] - M->rowptr[lo]);
        sde[q] = (int)M->rowptr[lo];
        /* from rank q: its provisional rows in my block */
        lo = clamp(prow[q], first, first + mf) - first;
        hi = clamp(prow[q + 1], first, first + mf) - first;
        rr[q] = (int)(hi - lo);
        rdr[q] = (int)lo;
    }
    for (hpls_int k = 0; k < m; k++)
        len[k] = M->rowptr[k + 1] - M->rowptr[k];
    if ((st = fits_int(mf, rank, "rows")) == HPLS_OK && !(rp = hpls_malloc(mf + 1, sizeof *rp)))
        st = HPLS_ERR_NOMEM;
    if ((st = agree(comm, st)) != HPLS_OK)
        goto done;
    rp[0] = 0;
    MPI_Alltoallv(len, sr, sdr, MPI_INT64_T, rp + 1, rr, rdr, MPI_INT64_T, comm);
    for (hpls_int k = 0; k < mf; k++)
        rp[k + 1] += rp[k];
    for (int q = 0; q < size; q++) {
        re[q] = (int)(rp[rdr[q] + rr[q]] - rp[rdr[q]]);
        rde[q] = (int)rp[rdr[q]];
    }
    if ((st = fits_int(rp[mf], rank, "entries")) == HPLS_OK) {
        c32 = hpls_malloc(rp[mf], sizeof *c32);
        gc = hpls_malloc(rp[mf], sizeof *gc);
        v = hpls_malloc(rp[mf], sizeof *v);
        if (!c32 || !gc || !v)
            st = HPLS_ERR_NOMEM;
    }
    if ((st = agree(comm, st)) != HPLS_OK)
        goto done;
    MPI_Alltoallv(M->colind, se, sde, MPI_INT32_T, c32, re, rde, MPI_INT32_T, comm);
    MPI_Alltoallv(M->val, se, sde, MPI_DOUBLE, v, re, rde, MPI_DOUBLE, comm);
    hpls_csr_destroy(*B); /* before D is built: the rows are here now */
    *B = NULL;
    for (hpls_int p = 0; p < rp[mf]; p++)
        gc[p] = c32[p];
    hpls_free(c32);
    c32 = NULL;
    st = hpls_dcsr_create(comm, n, mf, rp, gc, v, D);
done:
    hpls_free(cut);
    hpls_free(len);
    hpls_free(sr);
    hpls_free(sdr);
    hpls_free(se);
    hpls_free(sde);
    hpls_free(rr);
    hpls_free(rdr);
    hpls_free(re);
    hpls_free(rde);
    hpls_free(rp);
    hpls_free(gc);
    hpls_free(c32);
    hpls_free(v);
    return st;
}

/* Every rank reads its part of the file (the steps at the top). */
static hpls_status read_parallel(MPI_Comm comm, const char *path, const plan *p, hpls_dcsr **D)
{
    hpls_mm_header h = {.array = 0,
                        .field = (int)p->field,
                        .symmetry = (int)p->symmetry,
                        .nrows = p->nrows,
                        .ncols = p->ncols,
                        .entries = p->entries,
                        .size_line = (long)p->size_line};
    hpls_mm_sink s = {0};
    hpls_csr *B = NULL;
    hpls_int lines = 0, entries = 0;
    int size;
    MPI_Comm_size(comm, &size);
    hpls_int *prow = hpls_malloc(size + 1, sizeof *prow);
    hpls_status st = agree(comm, prow ? HPLS_OK : HPLS_ERR_NOMEM);
    if (st == HPLS_OK)
        st = parse_range(comm, path, p, &h, &s, &lines, &entries);
    /* the same totals on every rank: the same verdict, no agreement needed */
    if (st == HPLS_OK && entries < h.entries)
        st = hpls_mm_ends_early(path, (long)(p->data_line + lines), &h, entries);
    if (st == HPLS_OK)
        st = to_provisional(comm, path, &h, &s, prow, &B);
    if (st == HPLS_OK)
        st = square(path, h.nrows, h.ncols);
    if (st == HPLS_OK && (st = to_owners(comm, h.nrows, prow, &B, D)) == HPLS_OK)
        (*D)->read = HPLS_READ_PARALLEL;
    hpls_free(s.rows);
    hpls_free(s.cols);
    hpls_free(s.vals);
    hpls_csr_destroy(B);
    hpls_free(prow);
    return st;
}

hpls_status hpls_dcsr_read(MPI_Comm comm, const char *path, hpls_read_mode mode, hpls_dcsr **D)
{
    hpls_status st = hpls_dcsr_comm_ok(comm, "hpls_dcsr_read");
    if (st != HPLS_OK)
        return st;
    if (!path || !D)
        return hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_read: NULL argument");
    *D = NULL;
    if (mode != HPLS_READ_AUTO && mode != HPLS_READ_ROOT && mode != HPLS_READ_PARALLEL)
        return hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_read: unknown mode %d", (int)mode);
    if (mode == HPLS_READ_ROOT)
        return read_root(comm, path, D);
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    plan p = {0};
    if (rank == 0)
        st = read_plan(path, mode, size, &p);
    if ((st = agree(comm, st)) != HPLS_OK)
        return st;
    MPI_Bcast(&p, (int)(sizeof p / sizeof(int64_t)), MPI_INT64_T, 0, comm);
    return p.parallel ? read_parallel(comm, path, &p, D) : read_root(comm, path, D);
}
