/* SPDX-License-Identifier: BSD-3-Clause */
/* options.c: the options of solvers and preconditioner objects: one table,
 * which the parser, the defaults, the checks of what applies and --help share
 * (options.h). */
#include "options.h"

#include "la/qtree.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

/* OPT_CHOICE: one of the comma-separated words in `choices`, stored as its index (int) */
typedef enum { OPT_METHOD, OPT_PC, OPT_REAL, OPT_INT, OPT_CHOICE } opt_kind;

typedef struct opt_def {
    const char *key;
    opt_kind kind;
    const char *def;
    unsigned needs; /* method flags the option needs (0: any method) */
    size_t off; /* field of hpls_options (OPT_REAL: double, OPT_INT: hpls_int, OPT_CHOICE: int) */
    double lo, hi; /* accepted range of a number */
    int open;      /* 1: lo and hi themselves excluded */
    const char *help;
    const char *choices; /* OPT_CHOICE */
    int exec;            /* 1: how it runs (threads, backend): a preconditioner object's too */
    int solve;           /* 1: read by the solve only (the stop test, the initial guess): may
                            change between solves without a new setup (DESIGN.md) */
} opt_def;

#define OFF(f) .off = offsetof(hpls_options, f)
static const opt_def opts[] = {
    {"solver", OPT_METHOD, "bicgstab", .help = "iterative method (see the list below)"},
    {"precond", OPT_PC, "none", HPLS_M_PRECOND, .help = "preconditioner (see the list below)"},
    {"tol", OPT_REAL, "1e-8", OFF(tol), .lo = 0, .hi = 0.999999, .solve = 1,
     .help = "relative tolerance: stop when ||b-Ax|| <= tol*||b|| (0: run to maxiter)"},
    {"atol", OPT_REAL, "0", OFF(atol), .lo = 0, .hi = HUGE_VAL, .solve = 1,
     .help = "absolute tolerance: stop when ||b-Ax|| <= atol"},
    {"rtol_ref", OPT_CHOICE, "b", OFF(ref), .choices = "b,r0", .solve = 1,
     .help = "what tol is relative to: b (||b||) or r0 (||b-Ax0||)"},
    {"maxiter", OPT_INT, "10000", OFF(maxiter), .lo = 1, .hi = 1e15, .solve = 1,
     .help = "maximum iterations"},
    {"miniter", OPT_INT, "0", OFF(miniter), .lo = 0, .hi = 1e15, .solve = 1,
     .help = "minimum iterations: no convergence before (OpenFOAM's minIter)"},
    {"confirm", OPT_CHOICE, "yes", OFF(confirm), .choices = "no,yes", .solve = 1,
     .help = "yes: a stop is confirmed on b - A x, which the report gives; no: a stop that a "
             "convergence test of the caller's (hpls_solver_set_convergence_test: cg, bicgstab) "
             "decided on the residual it was shown is taken as PETSc's KSP takes it, one product "
             "fewer, and the report gives that residual (info unconfirmed = 1); tol's and "
             "atol's stops are confirmed either way"},
    {"restart", OPT_INT, "30", HPLS_M_RESTART, OFF(restart), .lo = 1, .hi = 1e6,
     .help = "Krylov subspace size before a restart (GMRES family)"},
    {"ell", OPT_INT, "2", HPLS_M_ELL, OFF(ell), .lo = 1, .hi = 10,
     .help = "bicgstabl: BiCG steps per minimal-residual step, l of BiCGstab(l) (1: BiCGSTAB)"},
    {"omega", OPT_REAL, "1", HPLS_M_OMEGA, OFF(omega), .lo = 0, .hi = 2, .open = 1,
     .help = "relaxation weight, 0 < omega < 2 (weighted jacobi, sor, ssor)"},
    {"pc_side", OPT_CHOICE, "right", HPLS_M_LEFT, OFF(left), .choices = "right,left",
     .help = "right, or left (gmres; which residual the test uses: norm)"},
    {"norm", OPT_CHOICE, "unpreconditioned", HPLS_M_LEFT, OFF(precnorm),
     .choices = "unpreconditioned,preconditioned",
     .help = "gmres pc_side=left: converged means ||b-Ax|| <= tol*||b|| (unpreconditioned, "
             "confirmed on b - A x), or ||M^-1 r|| <= tol*||M^-1 b|| (preconditioned)"},
    {"gspike_p", OPT_INT, "0", HPLS_M_GSPIKE, OFF(gspike_p), .lo = 0, .hi = 1e12,
     .help = "g-Spike partitions (0: from n and the thread count); under MPI per rank"},
    {"gspike_delta", OPT_REAL, "1e-6", HPLS_M_GSPIKE, OFF(gspike_delta), .lo = 0, .hi = 1,
     .help = "g-Spike: a block is singular when |R_mm| < delta*||A_j|| (0: no repair)"},
    {"tridiag", OPT_CHOICE, "thomas", HPLS_M_TRIDIAG, OFF(tridiag),
     .choices = "thomas,cr,gspike,lapack",
     .help = "how hisa / precond tridiag solve with T (bhisa, btridiag: thomas or cr)"},
    {"block", OPT_INT, "0", HPLS_M_BLOCK, OFF(block), .lo = 0, .hi = 1e15,
     .help = "rows per block of bhisa / btridiag (0: one block per thread)"},
    {"xtol", OPT_REAL, "0", HPLS_M_XTOL, OFF(xtol), .lo = 0, .hi = 1,
     .help = "hisa/bhisa also stop when ||x_m - x_m-1|| <= xtol ||x_m|| (0: off)"},
    {"trisolve", OPT_CHOICE, "auto", HPLS_M_TRISOLVE | HPLS_M_RELAX, OFF(trisolve),
     .choices = "serial,levels,syncfree,auto,block",
     .help = "dilu/dic/ilu0 build and sweeps: serial, levels (level sets), syncfree (ready "
             "flags), auto (time the first applies, keep the fastest; a parallel one is dropped "
             "once its trial passes 2x serial's time; on opencl: syncfree on a GPU, levels on a "
             "CPU device), block (M of A's block-diagonal part, a block per thread, built and "
             "swept with no waits: PETSc's block Jacobi in one process; more iterations, host "
             "only, never chosen by auto); gs, sor, ssor, precond ssor: their sweeps on a device, "
             "the same choices but block (auto: as dilu's there; the host's sweeps are "
             "sequential)"},
    {"shift", OPT_REAL, "0", HPLS_M_TRISOLVE, OFF(shift), .lo = 0, .hi = 1e300,
     .help = "dilu/dic/ilu0 diagonal shift A_ii + shift*sgn(A_ii)*max|A_ij|: remedy for zero/tiny "
             "E_ii"},
    {"dilu_order", OPT_CHOICE, "rows", HPLS_M_DILU, OFF(dilu_order), .choices = "rows,faces",
     .help =
         "dilu/dic: E_ii = A_ii - sum_j A_ij A_ji / E_jj summed then subtracted (rows), or "
         "term by term in OpenFOAM's face order, its sweeps' order too (faces: OpenFOAM's bits)"},
    {"psize", OPT_INT, "0", HPLS_M_PSIZE, OFF(psize), .lo = 0, .hi = 1e15,
     .help = "pjg block size: 1 is Gauss-Seidel, n is Jacobi (0: from n and the threads)"},
    {"sweeps", OPT_INT, "1", HPLS_M_PSIZE, OFF(sweeps), .lo = 1, .hi = 1000,
     .help = "precond pjg: PJG sweeps per application"},
    {"divtol", OPT_REAL, "1e8", OFF(divtol), .lo = 1, .hi = HUGE_VAL, .open = 1, .solve = 1,
     .help = "diverged when ||r|| > divtol*||r0||"},
    {"stag_window", OPT_INT, "1000", OFF(stag_window), .lo = 0, .hi = 1e15, .solve = 1,
     .help = "stagnation when the residual has stayed within 0.01% of one value for this many "
             "iterations (0: off)"},
    {"initial_guess", OPT_CHOICE, "zero", OFF(initial_guess), .choices = "zero,given", .solve = 1,
     .help = "zero, or given (x on entry is the guess)"},
    {"threads", OPT_INT, "0", OFF(threads), .lo = 0, .hi = HPLS_MAX_THREADS, .exec = 1,
     .help = "threads of this solver or preconditioner (0: automatic, one thread below "
             "1000000 stored entries, else OpenMP's default; never changes the process's "
             "OpenMP setting)"},
    {"backend", OPT_CHOICE, "cpu", OFF(backend), .choices = HPLS_BACKEND_NAMES, .exec = 1,
     .help = "what the solve runs on: cpu (OpenMP), or ref (the sequential reference that "
             "checks every vector a method hands it), or opencl (device memory and kernels: "
             "jacobi, hisa, bhisa and the Krylov methods, precond jacobi, dilu, dic, ilu0; see "
             "hpls info --devices), or cuda (the same on an NVIDIA GPU, through the optional "
             "module libhpls_cuda.so; where it cannot run, hpls solve says why and uses cpu)"},
    {"prefetch", OPT_CHOICE, "auto", OFF(prefetch), .choices = HPLS_PF_NAMES ",auto", .exec = 1,
     .help = "software prefetch of the host CSR products (cpu and mpi backends): none; rows "
             "(the streams of A) or rows+x (and the gathers of x) with the locality hint l3, l2 "
             "or nta; default (none when A fits in half the last-level cache, else rows+x-l2, x "
             "dropped on a stencil); auto (on the first products of the solves each variant is "
             "timed once, those within 1.25x of the fastest once more, 6 to 12 products, and "
             "the fastest kept; every variant gives the same bits).  What pays differs between "
             "CPUs: docs/performance.md"},
    {"reproducible", OPT_INT, "0", OFF(reproducible), .lo = 0, .hi = 1, .exec = 1,
     .help = "1: the same bits (x, residuals, iteration counts) for any number of threads and "
             "MPI ranks: every sum exact and rounded once (a long fixed-point accumulator; under "
             "MPI its digits added exactly by one MPI_Allreduce, 560 bytes per value) and each "
             "row of A x summed in global column order; for jacobi and the Krylov methods with "
             "precond none or jacobi, format csr, on backend cpu, and under MPI without A^T "
             "(bicg, qmr), reorder or scale (the others are refused: their sweeps, blocks or M, "
             "e.g. dilu on each rank's block, or A^T x's sums follow the partition); cost: "
             "bench/repro.sh.  0: sums per thread and rank in order (repeatable for fixed "
             "threads in one process)"},
    {"format", OPT_CHOICE, "csr", HPLS_M_FORMAT, OFF(format), .choices = "csr,qtree",
     .help = "how the Krylov methods apply A: csr, or qtree (quad-tree leaves of side <= qt_d "
             "panel by panel, Xu et al. 2015)"},
    {"qt_d", OPT_INT, "0", HPLS_M_FORMAT, OFF(qt_d), .lo = 0, .hi = HPLS_QT_MAX_D,
     .help = "qtree target division length d (0: Eq. 17 for L2 and its neighbours timed at "
             "setup; csr kept unless a tree is 5% faster)"},
    {"reorder", OPT_CHOICE, "none", OFF(reorder), .choices = "none,rcm,matching",
     .help = "none; rcm: every method solves P A P^T (reverse Cuthill-McKee); matching: A Q, "
             "the columns permuted to put the largest-product matching on the diagonal (no "
             "zero diagonal left); x is permuted back"},
    {"scale", OPT_CHOICE, "none", OFF(scale), .choices = "none,ruiz,matching",
     .help = "none; ruiz: Dr A Dc with every row and column max |entry| near 1; matching: "
             "the weighted matching's scaling (matched entries +-1, all |entries| <= 1); x is "
             "unscaled, the residual reported on A"},
};
#undef OFF
enum { NOPTS = sizeof opts / sizeof opts[0] };
_Static_assert((int)NOPTS <= (int)HPLS_MAX_OPTS,
               "set_mask and values hold at most HPLS_MAX_OPTS options");

/* Records a message in the owner's buffer (and thread-locally); returns st. */
static hpls_status fail(hpls_optset *os, hpls_status st, const char *fmt, ...) HPLS_PRINTF(3, 4);
static hpls_status fail(hpls_optset *os, hpls_status st, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(os->msg, os->msglen, "%s", text);
    return hpls_fail(st, "%s", text);
}

/* 1 if typed spells the len bytes of name, in any case ("BiCGSTAB", "DILU"). */
static int same_name(const char *name, size_t len, const char *typed)
{
    for (size_t i = 0; i < len; i++)
        if (tolower((unsigned char)name[i]) != tolower((unsigned char)typed[i]))
            return 0; /* also ends at typed's '\0', which no name byte equals */
    return typed[len] == '\0';
}

static const hpls_method *find_method(const char *name)
{
    for (int i = 0; i < hpls_nmethods; i++)
        if (same_name(hpls_methods[i].name, strlen(hpls_methods[i].name), name))
            return &hpls_methods[i];
    return NULL;
}

/* Other programs' names for hpls's preconditioners: Lis's "ilu" is ILU(k), whose
 * default fill level (-ilu_fill 0) makes it ILU(0). */
static const char *const pc_aliases[][2] = {{"ilu", "ilu0"}};

static const hpls_pc_type *find_pc(const char *name)
{
    for (size_t a = 0; a < sizeof pc_aliases / sizeof pc_aliases[0]; a++)
        if (same_name(pc_aliases[a][0], strlen(pc_aliases[a][0]), name))
            name = pc_aliases[a][1];
    for (int i = 0; i < hpls_npc_types; i++)
        if (same_name(hpls_pc_types[i].name, strlen(hpls_pc_types[i].name), name))
            return &hpls_pc_types[i];
    return NULL;
}

/* "a, b, c" from a table whose entries each begin with their name. */
static void list_names(const void *table, size_t stride, int count, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && used < len; i++) {
        const char *name = *(const char *const *)((const char *)table + (size_t)i * stride);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", name);
    }
}

static int parse_real(const char *v, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE || !isfinite(d))
        return 0;
    *out = d;
    return 1;
}

/* Integers may be written 1e6; they must be integral and fit in 64 bits. */
static int parse_int(const char *v, hpls_int *out)
{
    double d;
    if (!parse_real(v, &d) || d != floor(d) || fabs(d) > 9.0e15)
        return 0;
    *out = (hpls_int)d;
    return 1;
}

static hpls_status set_one(hpls_optset *os, const char *key, const char *val)
{
    int k = 0;
    while (k < NOPTS && strcmp(opts[k].key, key) != 0)
        k++;
    if (k == NOPTS) {
        char keys[512];
        list_names(opts, sizeof opts[0], NOPTS, keys, sizeof keys);
        return fail(os, HPLS_ERR_OPTION, "unknown option \"%s\" (options: %s)", key, keys);
    }
    hpls_options *o = os->opt;
    const char *canonical = val; /* what get_option returns: a name as the tables spell it */
    char word[sizeof os->values[0]];
    int ok = 1;
    double d = 0;
    hpls_int n = 0;
    switch (opts[k].kind) {
    case OPT_METHOD: {
        const hpls_method *m = find_method(val);
        if (!m) {
            char names[512];
            list_names(hpls_methods, sizeof hpls_methods[0], hpls_nmethods, names, sizeof names);
            return fail(os, HPLS_ERR_OPTION, "option solver: unknown method \"%s\" (%s)", val,
                        names);
        }
        o->method = m;
        canonical = m->name;
        break;
    }
    case OPT_PC: {
        const hpls_pc_type *p = find_pc(val);
        if (!p) {
            char names[512];
            list_names(hpls_pc_types, sizeof hpls_pc_types[0], hpls_npc_types, names, sizeof names);
            return fail(os, HPLS_ERR_OPTION, "option precond: unknown preconditioner \"%s\" (%s)",
                        val, names);
        }
        o->pc_type = p;
        canonical = p->name;
        break;
    }
    case OPT_REAL:
    case OPT_INT:
        ok = opts[k].kind == OPT_REAL ? parse_real(val, &d) : parse_int(val, &n);
        if (opts[k].kind == OPT_INT)
            d = (double)n;
        ok = ok &&
             (opts[k].open ? d > opts[k].lo && d < opts[k].hi : d >= opts[k].lo && d <= opts[k].hi);
        if (ok && opts[k].kind == OPT_REAL)
            *(double *)((char *)o + opts[k].off) = d;
        else if (ok)
            *(hpls_int *)((char *)o + opts[k].off) = n;
        break;
    case OPT_CHOICE: {
        size_t len = strlen(val);
        int index = 0;
        ok = 0;
        for (const char *c = opts[k].choices; *c; index++) {
            size_t w = strcspn(c, ",");
            if (w == len && same_name(c, w, val)) {
                *(int *)((char *)o + opts[k].off) = index;
                snprintf(word, sizeof word, "%.*s", (int)w, c);
                canonical = word;
                ok = 1;
                break;
            }
            c += w + (c[w] == ',');
        }
        break;
    }
    }
    if (!ok && opts[k].kind == OPT_CHOICE)
        return fail(os, HPLS_ERR_OPTION, "option %s: bad value \"%s\" (one of: %s)", key, val,
                    opts[k].choices);
    if (!ok)
        return fail(
            os, HPLS_ERR_OPTION, "option %s: bad value \"%s\" (expected %s %s %g and %s %g)", key,
            val, opts[k].kind == OPT_INT ? "an integer" : "a number",
            opts[k].open ? "above" : "from", opts[k].lo, opts[k].open ? "below" : "to", opts[k].hi);
    snprintf(os->values[k], sizeof os->values[k], "%s", canonical);
    os->set_mask |= UINT64_C(1) << k;
    return HPLS_OK;
}

hpls_status hpls_optset_set(hpls_optset *os, const char *keyvalue)
{
    const char *eq = strchr(keyvalue, '=');
    char key[64];
    size_t klen = eq ? (size_t)(eq - keyvalue) : 0;
    if (!eq || klen == 0 || klen >= sizeof key || eq[1] == '\0')
        return fail(os, HPLS_ERR_OPTION, "option \"%s\" is not of the form key=value", keyvalue);
    memcpy(key, keyvalue, klen);
    key[klen] = '\0';
    if (strlen(eq + 1) >= sizeof os->values[0])
        return fail(os, HPLS_ERR_OPTION, "option %s: value too long", key);
    return set_one(os, key, eq + 1);
}

hpls_status hpls_optset_set_list(hpls_optset *os, const char *options)
{
    const char *p = options;
    while (*p) {
        while (*p == ' ' || *p == ',' || *p == '\t' || *p == '\n')
            p++;
        size_t len = strcspn(p, " ,\t\n");
        if (len == 0)
            break;
        char item[128];
        if (len >= sizeof item)
            return fail(os, HPLS_ERR_OPTION, "option \"%.40s...\" too long", p);
        memcpy(item, p, len);
        item[len] = '\0';
        hpls_status st = hpls_optset_set(os, item);
        if (st != HPLS_OK)
            return st;
        p += len;
    }
    return HPLS_OK;
}

hpls_status hpls_optset_init(hpls_optset *os, hpls_options *opt, char *msg, size_t msglen)
{
    *os = (hpls_optset){.opt = opt, .msg = msg, .msglen = msglen};
    for (int k = 0; k < NOPTS; k++)
        if (set_one(os, opts[k].key, opts[k].def) != HPLS_OK)
            return HPLS_ERR_INTERNAL;
    const char *env = getenv("HPLS_OPTIONS");
    if (env && hpls_optset_set_list(os, env) != HPLS_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", msg);
        return fail(os, HPLS_ERR_OPTION, "environment variable HPLS_OPTIONS: %s", why);
    }
    os->set_mask = 0;
    return HPLS_OK;
}

static int find_key(const char *key)
{
    for (int k = 0; k < NOPTS; k++)
        if (strcmp(opts[k].key, key) == 0)
            return k;
    return -1;
}

const char *hpls_optset_get(const hpls_optset *os, const char *key)
{
    int k = find_key(key);
    return k < 0 ? NULL : os->values[k];
}

int hpls_optset_is_set(const hpls_optset *os, const char *key)
{
    int k = find_key(key);
    return k >= 0 && (os->set_mask >> k & 1u);
}

int hpls_optset_solve_only(const char *options)
{
    int any = 0;
    for (const char *p = options; *p;) {
        p += strspn(p, " ,\t\n");
        size_t len = strcspn(p, " ,\t\n");
        if (len == 0)
            break;
        size_t klen = strcspn(p, "=");
        int k = 0;
        while (k < NOPTS && (klen >= len || strlen(opts[k].key) != klen ||
                             strncmp(opts[k].key, p, klen) != 0))
            k++;
        if (k == NOPTS || !opts[k].solve)
            return 0;
        any = 1;
        p += len;
    }
    return any;
}

const char *hpls_optset_unused(const hpls_optset *os, unsigned uses, int generic)
{
    for (int k = 0; k < NOPTS; k++) {
        if (!(os->set_mask >> k & 1u) || opts[k].exec)
            continue;
        if (opts[k].needs ? !(uses & opts[k].needs) : !generic)
            return opts[k].key;
    }
    return NULL;
}

hpls_pcopts hpls_options_pc(const hpls_options *o)
{
    return (hpls_pcopts){.omega = o->omega,
                         .trisolve = o->trisolve,
                         .shift = o->shift,
                         .dilu_order = o->dilu_order,
                         .tridiag = o->tridiag,
                         .block = o->block,
                         .gspike_p = o->gspike_p,
                         .gspike_delta = o->gspike_delta,
                         .psize = o->psize,
                         .sweeps = o->sweeps,
                         .part_nblocks = o->part_nblocks,
                         .part_ptr = o->part_ptr,
                         .part_idx = o->part_idx};
}

/* The help text, made once (a static buffer written at every call would race). */
static char help_text[16384]; /* every option, method and preconditioner: about 7 KB now */
static once_flag help_once = ONCE_FLAG_INIT;

static void make_help(void)
{
    size_t len = 0;
#define ADD(...)                                                                                   \
    len += (size_t)snprintf(help_text + len, len < sizeof help_text ? sizeof help_text - len : 0,  \
                            __VA_ARGS__)
    ADD("Options (key=value, or --key value on the command line):\n");
    for (int k = 0; k < NOPTS; k++)
        ADD("  %-14s %-10s %s\n", opts[k].key, opts[k].def, opts[k].help);
    ADD("\nSolvers (solver=NAME):\n");
    for (int i = 0; i < hpls_nmethods; i++)
        ADD("  %-14s %s\n", hpls_methods[i].name, hpls_methods[i].help);
    ADD("\nPreconditioners (precond=NAME, for the Krylov methods, and for hpls_precond "
        "objects):\n");
    for (int i = 0; i < hpls_npc_types; i++)
        ADD("  %-14s %s\n", hpls_pc_types[i].name, hpls_pc_types[i].help);
    ADD("\nNames of solvers, preconditioners and choices are case-insensitive (BiCGSTAB is\n"
        "bicgstab); other programs' names:");
    for (size_t a = 0; a < sizeof pc_aliases / sizeof pc_aliases[0]; a++)
        ADD(" precond=%s is %s", pc_aliases[a][0], pc_aliases[a][1]);
    ADD(" (Lis).\n");
#undef ADD
}

const char *hpls_solver_help(void)
{
    call_once(&help_once, make_help);
    return help_text;
}
