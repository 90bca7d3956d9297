/* SPDX-License-Identifier: BSD-3-Clause */
/* test_mmio.c: Matrix Market reading and writing: every class of bad input
 * gets its status and a message naming FILE:LINE and the offending token;
 * symmetric storage is expanded; round trips are bit-exact; writes are atomic;
 * real matrices read with the sizes in ../shared/data/MANIFEST.md. */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#define CHUNK (1 << 20) /* the reader's chunk size, to put tokens across its boundary */

/* ---- helpers -------------------------------------------------------------- */

static void assert_message_has(const char *a, const char *b)
{
    const char *msg = hpls_last_error();
    if (!strstr(msg, a) || (b && !strstr(msg, b)))
        fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", msg, a, b ? b : "");
}

/* Reads text as a CSR matrix and expects status want with a message that
 * starts "FILE:LINE:" and contains what. */
static void expect_read_error(const char *text, hpls_status want, long line, const char *what)
{
    char path[512], where[600];
    tu_write_file("mmio_bad.mtx", text, path, sizeof path);
    hpls_csr *A;
    assert_int_equal(hpls_mm_read_csr(path, &A), want);
    assert_null(A);
    snprintf(where, sizeof where, "%s:%ld: ", path, line);
    assert_message_has(where, what);
}

static hpls_csr *read_csr_text(const char *name, const char *text)
{
    char path[512];
    hpls_csr *A;
    tu_write_file(name, text, path, sizeof path);
    if (hpls_mm_read_csr(path, &A) != HPLS_OK)
        fail_msg("%s", hpls_last_error());
    assert_int_equal(hpls_csr_check(A), HPLS_OK);
    return A;
}

/* Value at (i, j) of a CSR matrix, 0-based; NAN when not stored. */
static double entry(const hpls_csr *A, hpls_int i, hpls_int j)
{
    for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
        if (A->colind[p] == j)
            return A->val[p];
    return NAN;
}

static void write_gz(const char *path, const char *text)
{
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    assert_true(gzputs(gz, text) > 0);
    assert_int_equal(gzclose(gz), Z_OK);
}

/* Counts files in the test directory whose name starts with prefix. */
static int count_files(const char *prefix)
{
    char dir[512];
    tu_tmp_path("", dir, sizeof dir);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* A random n x n CSR matrix with about k entries per row and awkward values. */
static hpls_csr *random_csr(hpls_int n, hpls_int k, unsigned seed)
{
    hpls_vec *r = tu_vec_random(n * k * 2, seed);
    hpls_int *ri = malloc((size_t)(n * k) * sizeof *ri), *cj = malloc((size_t)(n * k) * sizeof *cj);
    double *v = malloc((size_t)(n * k) * sizeof *v);
    for (hpls_int p = 0; p < n * k; p++) {
        ri[p] = p / k;
        cj[p] = (hpls_int)(fabs(r->data[2 * p]) * (double)(n - 1));
        v[p] = r->data[2 * p + 1] * pow(10.0, (double)(p % 41) - 20.0);
    }
    hpls_csr *A;
    assert_int_equal(hpls_csr_from_coo(n, n, n * k, ri, cj, v, &A), HPLS_OK);
    free(ri);
    free(cj);
    free(v);
    hpls_vec_destroy(r);
    return A;
}

static void assert_csr_identical(const hpls_csr *A, const hpls_csr *B)
{
    assert_int_equal(A->nrows, B->nrows);
    assert_int_equal(A->ncols, B->ncols);
    assert_int_equal(A->nnz, B->nnz);
    assert_memory_equal(A->rowptr, B->rowptr, (size_t)(A->nrows + 1) * sizeof *A->rowptr);
    assert_memory_equal(A->colind, B->colind, (size_t)A->nnz * sizeof *A->colind);
    assert_memory_equal(A->val, B->val, (size_t)A->nnz * sizeof *A->val); /* bit for bit */
}

#define BANNER "%%MatrixMarket matrix coordinate real general\n"

/* ---- bad input: one test per class ---------------------------------------- */

static void reader_reports_missing_file_with_strerror(void **state)
{
    (void)state;
    char path[512];
    tu_tmp_path("mmio_no_such_file.mtx", path, sizeof path);
    hpls_csr *A;
    assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_ERR_IO);
    assert_message_has(path, "No such file or directory");
    hpls_vec *v;
    assert_int_equal(hpls_mm_read_vec(path, &v), HPLS_ERR_IO);
    int is_array;
    assert_int_equal(hpls_mm_is_array(path, &is_array), HPLS_ERR_IO);
}

static void reader_rejects_empty_file(void **state)
{
    (void)state;
    expect_read_error("", HPLS_ERR_PARSE, 1, "empty file");
}

static void reader_rejects_missing_or_bad_banner(void **state)
{
    (void)state;
    expect_read_error("3 3 1\n1 1 1\n", HPLS_ERR_PARSE, 1,
                      "missing %%MatrixMarket banner (found '3')");
    expect_read_error("%%MatrixMarket matrix\n", HPLS_ERR_PARSE, 1, "the format is missing");
    expect_read_error("%%MatrixMarket vector coordinate real general\n", HPLS_ERR_PARSE, 1,
                      "'vector'");
    expect_read_error("%%MatrixMarket matrix sparse real general\n", HPLS_ERR_PARSE, 1, "'sparse'");
    expect_read_error("%%MatrixMarket matrix coordinate float general\n", HPLS_ERR_PARSE, 1,
                      "'float'");
    expect_read_error("%%MatrixMarket matrix coordinate real upper\n", HPLS_ERR_PARSE, 1,
                      "'upper'");
    expect_read_error("%%MatrixMarket matrix coordinate real general extra\n", HPLS_ERR_PARSE, 1,
                      "'extra'");
    expect_read_error("%%MatrixMarket matrix array pattern general\n1 1\n", HPLS_ERR_PARSE, 1,
                      "pattern");
}

static void reader_reports_complex_and_hermitian_as_unsupported(void **state)
{
    (void)state;
    expect_read_error("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
                      HPLS_ERR_UNSUPPORTED, 1, "complex matrices are not supported");
    expect_read_error("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n",
                      HPLS_ERR_UNSUPPORTED, 1, "hermitian matrices are not supported");
}

static void reader_rejects_bad_size_lines(void **state)
{
    (void)state;
    expect_read_error(BANNER "3 x 1\n", HPLS_ERR_PARSE, 2, "'x'");
    expect_read_error(BANNER "% c\n\n3 3\n1 1 1\n", HPLS_ERR_PARSE, 4, "size line too short");
    expect_read_error(BANNER "-3 3 1\n", HPLS_ERR_PARSE, 2, "negative number of rows (-3)");
    expect_read_error(BANNER "3 3 1 7\n", HPLS_ERR_PARSE, 2, "'7'");
    expect_read_error(BANNER "0 3 1\n1 1 1\n", HPLS_ERR_PARSE, 2,
                      "1 entries declared for an empty 0 x 3");
    expect_read_error(BANNER "% only comments\n", HPLS_ERR_PARSE, 3, "file ends");
    expect_read_error("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n",
                      HPLS_ERR_PARSE, 2, "must be square, not 2 x 3");
}

static void reader_reports_file_ending_before_declared_entries(void **state)
{
    (void)state;
    expect_read_error(BANNER "5 5 5\n1 1 1\n2 2 2\n3 3 3\n", HPLS_ERR_PARSE, 6,
                      "file ends after 3 of 5 entries");
    expect_read_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", HPLS_ERR_PARSE, 6,
                      "file ends after 3 of 4 entries");
    expect_read_error(BANNER "5 5 1\n1 1", HPLS_ERR_PARSE, 3, "ends before the value");
}

static void reader_rejects_more_entries_than_declared(void **state)
{
    (void)state;
    expect_read_error(BANNER "3 3 2\n1 1 1\n2 2 2\n\n3 3 3\n", HPLS_ERR_PARSE, 6,
                      "more entries than the 2 declared ('3')");
}

static void reader_names_line_of_non_numeric_token(void **state)
{
    (void)state;
    expect_read_error(BANNER "3 3 2\n1 1 1\n2 2 1.5x\n", HPLS_ERR_PARSE, 4,
                      "value '1.5x' is not a number");
    expect_read_error(BANNER "3 3 2\n1 1 1\n2 b 1\n", HPLS_ERR_PARSE, 4, "column index 'b'");
    expect_read_error(BANNER "3 3 1\n1.0 1 1\n", HPLS_ERR_PARSE, 3, "row index '1.0'");
    expect_read_error(BANNER "3 3 2\n1 1 1\n% no comments among entries\n", HPLS_ERR_PARSE, 4,
                      "row index '%'");
    expect_read_error("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 2.5\n",
                      HPLS_ERR_PARSE, 3, "value '2.5' is not an integer");
    expect_read_error(BANNER "3 3 1\n99999999999999999999 1 1\n", HPLS_ERR_PARSE, 3,
                      "'99999999999999999999'");
}

static void reader_rejects_overlong_token(void **state)
{
    (void)state;
    char text[512];
    snprintf(text, sizeof text, "%s3 3 1\n1 1 1.%0120d\n", BANNER, 0);
    expect_read_error(text, HPLS_ERR_PARSE, 3, "token longer than 100 characters ('1.000");
}

static void reader_rejects_trailing_garbage_on_entry_line(void **state)
{
    (void)state;
    expect_read_error(BANNER "3 3 2\n1 1 1\n2 2 2 junk\n", HPLS_ERR_PARSE, 4,
                      "unexpected 'junk' after the entry");
    expect_read_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n",
                      HPLS_ERR_PARSE, 3, "unexpected '1'");
}

static void reader_names_line_of_out_of_range_index(void **state)
{
    (void)state;
    expect_read_error(BANNER "3 4 2\n1 1 1\n0 2 1\n", HPLS_ERR_SIZE, 4,
                      "row index 0 is out of range 1..3");
    expect_read_error(BANNER "3 4 2\n1 5 1\n", HPLS_ERR_SIZE, 3,
                      "column index 5 is out of range 1..4");
    expect_read_error(BANNER "3 4 1\n-1 1 1\n", HPLS_ERR_SIZE, 3, "row index -1 is out of range");
}

static void reader_names_line_and_value_of_nan_or_inf(void **state)
{
    (void)state;
    expect_read_error(BANNER "3 3 2\n1 1 1\n2 2 nan\n", HPLS_ERR_VALUE, 4,
                      "value 'nan' is not finite");
    expect_read_error(BANNER "3 3 1\n1 1 -Inf\n", HPLS_ERR_VALUE, 3, "'-Inf'");
    /* glibc's strtod raises FE_OVERFLOW on a literal past DBL_MAX (it returns
     * HUGE_VAL and ERANGE, which the reader reports): a third-party trap, lifted
     * around this read only (make check-fpe, docs/testing.md) */
    int held = tu_fpe_hold();
    expect_read_error(BANNER "3 3 1\n1 1 1e999\n", HPLS_ERR_VALUE, 3, "'1e999'");
    tu_fpe_release(held);
}

static void reader_refuses_declared_sizes_that_cannot_fit_in_memory(void **state)
{
    (void)state;
    expect_read_error(BANNER "2000000000 2000000000 100000000000000\n1 1 1\n", HPLS_ERR_NOMEM, 2,
                      "declared size 2000000000 x 2000000000 with 100000000000000 entries");
    expect_read_error("%%MatrixMarket matrix array real general\n2000000000 2000000000\n1\n",
                      HPLS_ERR_NOMEM, 2, "declared size 2000000000 x 2000000000");
    expect_read_error(BANNER "5 5 9223372036854775807\n", HPLS_ERR_NOMEM, 2, "declared size 5 x 5");
}

static void reader_rejects_dimensions_beyond_32bit_indices(void **state)
{
    (void)state;
    expect_read_error(BANNER "3000000000 1 0\n", HPLS_ERR_SIZE, 2,
                      "3000000000 x 1 matrix exceeds the 32-bit index limit");
}

static void reader_rejects_nonzero_diagonal_in_skew_symmetric_file(void **state)
{
    (void)state;
    expect_read_error(
        "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 4\n2 2 1.5\n",
        HPLS_ERR_PARSE, 4, "nonzero diagonal entry (2, 2) = 1.5");
}

static void reader_reports_truncated_gzip_file(void **state)
{
    (void)state;
    char path[512];
    tu_tmp_path("mmio_cut.mtx.gz", path, sizeof path);
    hpls_csr *A = random_csr(2000, 5, 1), *B;
    assert_int_equal(hpls_mm_write_csr(path, A), HPLS_OK);
    assert_int_equal(hpls_mm_read_csr(path, &B), HPLS_OK);
    hpls_csr_destroy(B);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    assert_int_equal(truncate(path, size / 2), 0);
    assert_int_equal(hpls_mm_read_csr(path, &B), HPLS_ERR_PARSE);
    assert_null(B);
    assert_message_has(path, "truncated or corrupt gzip data");
    hpls_csr_destroy(A);
}

static void vector_reader_rejects_a_matrix(void **state)
{
    (void)state;
    char path[512];
    tu_write_file("mmio_notvec.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
                  path, sizeof path);
    hpls_vec *v;
    assert_int_equal(hpls_mm_read_vec(path, &v), HPLS_ERR_SIZE);
    assert_null(v);
    assert_message_has(":2: ", "a vector must be n x 1 or 1 x n, not 2 x 2");
}

/* ---- what the readers accept --------------------------------------------- */

static void reader_accepts_any_case_comments_blank_lines_and_crlf(void **state)
{
    (void)state;
    hpls_csr *A = read_csr_text("mmio_case.mtx", "%%matrixmarket MATRIX Coordinate REAL General\r\n"
                                                 "% a comment\r\n\r\n  %indented comment\n"
                                                 "\t2 3 2  \r\n1 3 -2.5e-1\r\n\n2 1 7\r\n\n");
    assert_int_equal(A->nrows, 2);
    assert_int_equal(A->ncols, 3);
    assert_int_equal(A->nnz, 2);
    assert_true(entry(A, 0, 2) == -0.25);
    assert_true(entry(A, 1, 0) == 7.0);
    hpls_csr_destroy(A);
}

static void reader_sums_duplicates_and_keeps_explicit_zeros(void **state)
{
    (void)state;
    hpls_csr *A = read_csr_text("mmio_dup.mtx", BANNER "3 3 4\n1 1 1\n1 1 2.5\n2 2 0\n3 1 -1\n");
    assert_int_equal(A->nnz, 3);
    assert_true(entry(A, 0, 0) == 3.5);
    assert_true(entry(A, 1, 1) == 0.0);
    assert_true(entry(A, 2, 0) == -1.0);
    hpls_csr_destroy(A);
}

static void reader_expands_symmetric_storage(void **state)
{
    (void)state;
    hpls_csr *A = read_csr_text("mmio_sym.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                                                "3 3 4\n1 1 4\n2 1 -1\n3 2 -2\n3 3 5\n");
    assert_int_equal(A->nnz, 6);
    assert_true(entry(A, 0, 1) == -1.0 && entry(A, 1, 0) == -1.0);
    assert_true(entry(A, 1, 2) == -2.0 && entry(A, 2, 1) == -2.0);
    assert_true(entry(A, 0, 0) == 4.0 && entry(A, 2, 2) == 5.0);
    hpls_csr_destroy(A);
}

static void reader_expands_skew_symmetric_storage_with_negated_mirror(void **state)
{
    (void)state;
    hpls_csr *A =
        read_csr_text("mmio_skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n"
                                       "3 3 3\n2 1 1.5\n3 1 -2\n3 3 0\n");
    assert_int_equal(A->nnz, 5); /* the explicit zero on the diagonal is kept */
    assert_true(entry(A, 1, 0) == 1.5 && entry(A, 0, 1) == -1.5);
    assert_true(entry(A, 2, 0) == -2.0 && entry(A, 0, 2) == 2.0);
    hpls_csr_destroy(A);
    hpls_dense *D;
    char path[512];
    tu_write_file("mmio_skew_array.mtx",
                  "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n", path,
                  sizeof path);
    assert_int_equal(hpls_mm_read_dense(path, &D), HPLS_OK);
    const double want[9] = {0, -1, -2, 1, 0, -3, 2, 3, 0};
    for (int k = 0; k < 9; k++)
        assert_true(D->data[k] == want[k]);
    hpls_dense_destroy(D);
}

static void reader_gives_pattern_entries_value_one_and_reads_integers(void **state)
{
    (void)state;
    hpls_csr *A =
        read_csr_text("mmio_pat.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                      "2 2 2\n1 1\n2 1\n");
    assert_int_equal(A->nnz, 3);
    assert_true(entry(A, 0, 0) == 1.0 && entry(A, 0, 1) == 1.0 && entry(A, 1, 0) == 1.0);
    hpls_csr_destroy(A);
    A = read_csr_text("mmio_int.mtx", "%%MatrixMarket matrix coordinate integer general\n"
                                      "2 2 2\n1 1 -7\n2 2 +123456789012\n");
    assert_true(entry(A, 0, 0) == -7.0 && entry(A, 1, 1) == 123456789012.0);
    hpls_csr_destroy(A);
}

static void reader_reads_gzip_files_transparently(void **state)
{
    (void)state;
    char path[512];
    tu_tmp_path("mmio_zlib.mtx.gz", path, sizeof path);
    write_gz(path, "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 0.5\n2 2 -3\n");
    hpls_csr *A;
    assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_OK);
    assert_int_equal(A->nnz, 2);
    assert_true(entry(A, 0, 0) == 0.5 && entry(A, 1, 1) == -3.0);
    hpls_csr_destroy(A);
}

static void csr_reader_keeps_nonzeros_of_array_file_and_dense_reader_sums_coordinates(void **state)
{
    (void)state;
    char path[512];
    int is_array = -1;
    tu_write_file("mmio_arr.mtx",
                  "%%MatrixMarket matrix array real general\n% col-major\n2 3\n"
                  "1\n0\n0\n4\n-5\n0\n",
                  path, sizeof path);
    assert_int_equal(hpls_mm_is_array(path, &is_array), HPLS_OK);
    assert_int_equal(is_array, 1);
    hpls_csr *A;
    assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_OK);
    assert_int_equal(hpls_csr_check(A), HPLS_OK);
    assert_int_equal(A->nnz, 3); /* zeros of an array file are not stored */
    assert_true(entry(A, 0, 0) == 1.0 && entry(A, 1, 1) == 4.0 && entry(A, 0, 2) == -5.0);
    hpls_csr_destroy(A);
    hpls_dense *D;
    assert_int_equal(hpls_mm_read_dense(path, &D), HPLS_OK);
    const double want[6] = {1, 0, -5, 0, 4, 0};
    assert_memory_equal(D->data, want, sizeof want);
    hpls_dense_destroy(D);

    tu_write_file("mmio_coo.mtx",
                  "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n"
                  "1 1 1\n2 1 2\n2 1 0.5\n",
                  path, sizeof path);
    assert_int_equal(hpls_mm_is_array(path, &is_array), HPLS_OK);
    assert_int_equal(is_array, 0);
    assert_int_equal(hpls_mm_read_dense(path, &D), HPLS_OK);
    const double sym[4] = {1, 2.5, 2.5, 0};
    assert_memory_equal(D->data, sym, sizeof sym);
    hpls_dense_destroy(D);
}

static void vector_reader_takes_columns_rows_and_sparse_vectors(void **state)
{
    (void)state;
    const char *files[] = {
        "%%MatrixMarket matrix array real general\n4 1\n1\n0\n-2\n3.5\n",
        "%%MatrixMarket matrix array real general\n1 4\n1\n0\n-2\n3.5\n",
        "%%MatrixMarket matrix coordinate real general\n4 1 3\n4 1 3.5\n1 1 1\n3 1 -2\n",
        "%%MatrixMarket matrix coordinate real general\n1 4 3\n1 4 3.5\n1 1 1\n1 3 -2\n",
    };
    const double want[4] = {1, 0, -2, 3.5};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[512];
        tu_write_file("mmio_vec.mtx", files[f], path, sizeof path);
        hpls_vec *v;
        assert_int_equal(hpls_mm_read_vec(path, &v), HPLS_OK);
        assert_int_equal(v->n, 4);
        assert_memory_equal(v->data, want, sizeof want);
        hpls_vec_destroy(v);
    }
}

/* A comment line of about CHUNK bytes moves the chunk boundary across every
 * byte of the entry lines that follow it. */
static void reader_joins_tokens_and_lines_split_across_chunks(void **state)
{
    (void)state;
    const char *tail = "4 4 3\n1 1 0.125\n2 3 -12345.678\n4 4 1e-3\n";
    size_t head = strlen(BANNER) + 2;
    char *text = malloc(CHUNK + 128);
    assert_non_null(text);
    for (size_t shift = 0; shift < 45; shift++) {
        size_t fill = CHUNK - head - 8 + shift;
        memcpy(text, BANNER "% ", head);
        memset(text + head, 'x', fill);
        strcpy(text + head + fill, "\n");
        strcat(text + head + fill, tail);
        hpls_csr *A = read_csr_text("mmio_chunk.mtx", text);
        assert_int_equal(A->nnz, 3);
        assert_true(entry(A, 0, 0) == 0.125 && entry(A, 1, 2) == -12345.678 &&
                    entry(A, 3, 3) == 1e-3);
        hpls_csr_destroy(A);
    }
    free(text);
}

/* ---- writing ---------------------------------------------------------------- */

static void csr_round_trip_is_bit_exact_plain_and_gzip(void **state)
{
    (void)state;
    const char *names[] = {"mmio_rt.mtx", "mmio_rt.mtx.gz"};
    hpls_csr *A = random_csr(30000, 7, 3); /* several MiB: crosses chunks */
    A->val[0] = 5e-324;                    /* subnormal */
    A->val[1] = -0.0;
    A->val[2] = 1.7976931348623157e308;
    A->val[3] = 0.1;
    for (size_t k = 0; k < 2; k++) {
        char path[512];
        tu_tmp_path(names[k], path, sizeof path);
        assert_int_equal(hpls_mm_write_csr(path, A), HPLS_OK);
        hpls_csr *B;
        assert_int_equal(hpls_mm_read_csr(path, &B), HPLS_OK);
        assert_csr_identical(A, B);
        hpls_csr_destroy(B);
    }
    char path[512];
    FILE *f = fopen(tu_tmp_path("mmio_rt.mtx.gz", path, sizeof path), "rb");
    assert_non_null(f);
    assert_true(fgetc(f) == 0x1f && fgetc(f) == 0x8b); /* a .gz path is written compressed */
    fclose(f);
    assert_int_equal(count_files("mmio_rt.mtx.tmp."), 0);
    hpls_csr_destroy(A);
}

static void vector_round_trip_is_bit_exact(void **state)
{
    (void)state;
    char path[512];
    tu_tmp_path("mmio_vrt.mtx", path, sizeof path);
    hpls_vec *v = tu_vec_random(1001, 9), *w;
    v->data[0] = -0.0;
    v->data[1] = 4.9406564584124654e-324;
    assert_int_equal(hpls_mm_write_vec(path, v), HPLS_OK);
    assert_int_equal(hpls_mm_read_vec(path, &w), HPLS_OK);
    assert_int_equal(w->n, v->n);
    assert_memory_equal(w->data, v->data, (size_t)v->n * sizeof *v->data);
    hpls_vec_destroy(w);
    hpls_vec *e;
    assert_int_equal(hpls_vec_create(0, &e), HPLS_OK);
    assert_int_equal(hpls_mm_write_vec(path, e), HPLS_OK);
    assert_int_equal(hpls_mm_read_vec(path, &w), HPLS_OK);
    assert_int_equal(w->n, 0);
    hpls_vec_destroy(w);
    hpls_vec_destroy(e);
    v->data[5] = NAN;
    assert_int_equal(hpls_mm_write_vec(path, v), HPLS_ERR_VALUE);
    assert_message_has(path, "row 6");
    hpls_vec_destroy(v);
}

static void writer_reports_missing_directory_with_strerror(void **state)
{
    (void)state;
    char path[512];
    tu_tmp_path("mmio_no_such_dir/a.mtx", path, sizeof path);
    hpls_vec *v = tu_vec_const(3, 1.0);
    assert_int_equal(hpls_mm_write_vec(path, v), HPLS_ERR_IO);
    assert_message_has(path, "No such file or directory");
    hpls_vec_destroy(v);
}

/* A file size limit makes write() fail part way: the old file must survive
 * untouched and no temporary file may remain. */
static void writer_keeps_old_file_when_a_write_fails(void **state)
{
    (void)state;
    char path[512];
    const char *old = BANNER "1 1 1\n1 1 42\n";
    tu_write_file("mmio_atomic.mtx", old, path, sizeof path);
    hpls_csr *A = random_csr(20000, 5, 4);
    struct rlimit saved, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    small = saved;
    small.rlim_cur = 65536;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN); /* get EFBIG instead of a signal */
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    hpls_status st = hpls_mm_write_csr(path, A);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
    signal(SIGXFSZ, prev);
    assert_int_equal(st, HPLS_ERR_IO);
    assert_message_has(path, "File too large");
    assert_int_equal(count_files("mmio_atomic.mtx.tmp."), 0);
    hpls_csr *B;
    assert_int_equal(hpls_mm_read_csr(path, &B), HPLS_OK);
    assert_true(B->nnz == 1 && B->val[0] == 42.0);
    hpls_csr_destroy(B);
    hpls_csr_destroy(A);
}

static void writer_refuses_invalid_matrix(void **state)
{
    (void)state;
    char path[512];
    tu_tmp_path("mmio_nan.mtx", path, sizeof path);
    hpls_csr *A = random_csr(10, 2, 5);
    A->val[3] = INFINITY;
    assert_int_equal(hpls_mm_write_csr(path, A), HPLS_ERR_VALUE);
    assert_message_has(path, NULL);
    assert_int_equal(hpls_mm_write_csr(NULL, A), HPLS_ERR_ARG);
    hpls_csr_destroy(A);
}

/* ---- allocation failure ----------------------------------------------------- */

typedef enum { READ_CSR, READ_DENSE, READ_VEC, WRITE_CSR } io_call;

static hpls_status call(io_call c, const char *path)
{
    hpls_status st = HPLS_ERR_INTERNAL;
    if (c == READ_CSR || c == WRITE_CSR) {
        hpls_csr *A = NULL;
        st = hpls_mm_read_csr(path, &A);
        if (st == HPLS_OK && c == WRITE_CSR) {
            char out[512];
            st = hpls_mm_write_csr(tu_tmp_path("mmio_oom_out.mtx", out, sizeof out), A);
        } else if (st != HPLS_OK) {
            assert_null(A);
        }
        hpls_csr_destroy(A);
    } else if (c == READ_DENSE) {
        hpls_dense *D = NULL;
        st = hpls_mm_read_dense(path, &D);
        assert_true((st == HPLS_OK) == (D != NULL));
        hpls_dense_destroy(D);
    } else {
        hpls_vec *v = NULL;
        st = hpls_mm_read_vec(path, &v);
        assert_true((st == HPLS_OK) == (v != NULL));
        hpls_vec_destroy(v);
    }
    return st;
}

/* The k-th allocation fails for k = 1, 2, ... until the call succeeds: each
 * failure is an HPLS_ERR_NOMEM naming the file, and (ASan build) leaks nothing. */
static void readers_and_writers_fail_cleanly_at_every_allocation(void **state)
{
    (void)state;
    struct {
        io_call call;
        const char *text;
    } cases[] = {
        {READ_CSR, "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n2 1 2\n3 3 3\n"},
        {READ_CSR, "%%MatrixMarket matrix array real general\n2 2\n1\n0\n3\n4\n"},
        {READ_DENSE, "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n"},
        {READ_VEC, "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n"},
        {WRITE_CSR, "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char path[512];
        tu_write_file("mmio_oom.mtx", cases[c].text, path, sizeof path);
        long k = 1;
        for (;; k++) {
            hpls_alloc_fail_at(k);
            hpls_status st = call(cases[c].call, path);
            hpls_alloc_fail_at(0);
            if (st == HPLS_OK)
                break;
            assert_int_equal(st, HPLS_ERR_NOMEM);
            assert_message_has("mmio_oom", "injected");
            assert_true(k < 100);
        }
        assert_true(k > 2); /* the loop did inject failures */
    }
}

/* ---- real matrices ------------------------------------------------------------ */

typedef struct data_case {
    const char *file;
    hpls_int rows, nnz_full; /* from MANIFEST.md (square matrices) */
} data_case;

static void real_matrix_reads_with_manifest_size(void **state)
{
    const data_case *d = *state;
    char rel[256], path[512];
    snprintf(rel, sizeof rel, "matrices/%s", d->file);
    if (!tu_data_path(rel, path, sizeof path))
        skip();
    hpls_csr *A;
    if (hpls_mm_read_csr(path, &A) != HPLS_OK)
        fail_msg("%s", hpls_last_error());
    assert_int_equal(A->nrows, d->rows);
    assert_int_equal(A->ncols, d->rows);
    assert_int_equal(A->nnz, d->nnz_full);
    assert_int_equal(hpls_csr_check(A), HPLS_OK);
    hpls_csr_destroy(A);
}

/* clang-format off */
#define DATA_TEST(file, rows, nnz) \
    {TU_DATA_PREFIX "real_matrix_reads_with_manifest_size: " file, \
     real_matrix_reads_with_manifest_size, NULL, NULL, &(data_case){file, rows, nnz}}
/* clang-format on */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reader_reports_missing_file_with_strerror),
        cmocka_unit_test(reader_rejects_empty_file),
        cmocka_unit_test(reader_rejects_missing_or_bad_banner),
        cmocka_unit_test(reader_reports_complex_and_hermitian_as_unsupported),
        cmocka_unit_test(reader_rejects_bad_size_lines),
        cmocka_unit_test(reader_reports_file_ending_before_declared_entries),
        cmocka_unit_test(reader_rejects_more_entries_than_declared),
        cmocka_unit_test(reader_names_line_of_non_numeric_token),
        cmocka_unit_test(reader_rejects_overlong_token),
        cmocka_unit_test(reader_rejects_trailing_garbage_on_entry_line),
        cmocka_unit_test(reader_names_line_of_out_of_range_index),
        cmocka_unit_test(reader_names_line_and_value_of_nan_or_inf),
        cmocka_unit_test(reader_refuses_declared_sizes_that_cannot_fit_in_memory),
        cmocka_unit_test(reader_rejects_dimensions_beyond_32bit_indices),
        cmocka_unit_test(reader_rejects_nonzero_diagonal_in_skew_symmetric_file),
        cmocka_unit_test(reader_reports_truncated_gzip_file),
        cmocka_unit_test(vector_reader_rejects_a_matrix),
        cmocka_unit_test(reader_accepts_any_case_comments_blank_lines_and_crlf),
        cmocka_unit_test(reader_sums_duplicates_and_keeps_explicit_zeros),
        cmocka_unit_test(reader_expands_symmetric_storage),
        cmocka_unit_test(reader_expands_skew_symmetric_storage_with_negated_mirror),
        cmocka_unit_test(reader_gives_pattern_entries_value_one_and_reads_integers),
        cmocka_unit_test(reader_reads_gzip_files_transparently),
        cmocka_unit_test(csr_reader_keeps_nonzeros_of_array_file_and_dense_reader_sums_coordinates),
        cmocka_unit_test(vector_reader_takes_columns_rows_and_sparse_vectors),
        cmocka_unit_test(reader_joins_tokens_and_lines_split_across_chunks),
        cmocka_unit_test(csr_round_trip_is_bit_exact_plain_and_gzip),
        cmocka_unit_test(vector_round_trip_is_bit_exact),
        cmocka_unit_test(writer_reports_missing_directory_with_strerror),
        cmocka_unit_test(writer_keeps_old_file_when_a_write_fails),
        cmocka_unit_test(writer_refuses_invalid_matrix),
        cmocka_unit_test(readers_and_writers_fail_cleanly_at_every_allocation),
        DATA_TEST("cage5.mtx", 37, 233),
        DATA_TEST("gre_115.mtx", 115, 421),
        DATA_TEST("bcsstk03.mtx", 112, 640),
        DATA_TEST("plat362.mtx", 362, 5786),
        DATA_TEST("nos7.mtx", 729, 4617),
        DATA_TEST("gr_30_30.mtx", 900, 7744),
        DATA_TEST("hangGlider_2.mtx", 1647, 14754),
        DATA_TEST("bcsstk13.mtx", 2003, 83883),
        DATA_TEST("orani678.mtx", 2529, 90158),
        DATA_TEST("bayer10.mtx", 13436, 94926),
        DATA_TEST("e20r0000.mtx.gz", 4241, 131556),
        DATA_TEST("memplus.mtx.gz", 17758, 126150),
        DATA_TEST("bcsstk25.mtx.gz", 15439, 252241),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
