/* SPDX-License-Identifier: BSD-3-Clause */
/* _core.c: the CPython extension behind the hpls package.  hpls's solver,
 * preconditioner and tridiagonal solvers on the caller's buffers (numpy arrays
 * through the buffer protocol, never copied here), the GIL released during
 * setup and solve, and Ctrl-C through the solver's monitor (HPLS_STOPPED_USER).
 * The Python layer (__init__.py) converts the inputs to the layouts read here:
 * CSR rowptr int64, colind int32, values float64, all C-contiguous. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <hpls.h>
#include <string.h>
#include <time.h>

/* Seconds between two looks for a pending signal during a solve: each look
 * takes the GIL, so not every iteration. */
#define SIGNAL_CHECK_S 0.05

static PyObject *hpls_error; /* hpls.Error: a failure that is not the caller's input */

/* Raises the exception for st: ValueError for bad input (argument, option, size,
 * NaN, zero diagonal, singular ...), MemoryError, OSError, NotImplementedError
 * for a feature not compiled in, hpls.Error otherwise; the text is hpls's message. */
static PyObject *raise_status(hpls_status st, const char *where, const char *msg)
{
    PyObject *type = PyExc_ValueError;
    switch (st) {
    case HPLS_ERR_NOMEM: type = PyExc_MemoryError; break;
    case HPLS_ERR_IO: type = PyExc_OSError; break;
    case HPLS_ERR_NOT_COMPILED: type = PyExc_NotImplementedError; break;
    case HPLS_ERR_STATE:
    case HPLS_ERR_INTERNAL:
    case HPLS_ERR_CALLBACK: type = hpls_error; break;
    default: break;
    }
    if (msg && msg[0])
        PyErr_Format(type, "%s: %s: %s", where, hpls_strerror(st), msg);
    else
        PyErr_Format(type, "%s: %s", where, hpls_strerror(st));
    return NULL;
}

/* Takes a C-contiguous buffer of count values of one kind ('d' float64, 'q'
 * int64, 'i' int32); on failure raises ValueError naming what. */
static int get_buffer(PyObject *obj, Py_buffer *view, char kind, int writable, const char *what)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) != 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    int ok = f[1] == '\0' && (kind == 'd'   ? *f == 'd' && view->itemsize == 8
                              : kind == 'q' ? (*f == 'q' || *f == 'l') && view->itemsize == 8
                                            : (*f == 'i' || *f == 'l') && view->itemsize == 4);
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: expected %s values, got format '%s'", what,
                     kind == 'd'   ? "float64"
                     : kind == 'q' ? "int64"
                                   : "int32",
                     view->format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static Py_ssize_t count_of(const Py_buffer *v)
{
    return v->len / v->itemsize;
}

/* A matrix on the caller's buffers, kept (and the buffers held) for as long as
 * the solver or preconditioner set up with it lives. */
typedef struct held_matrix {
    Py_buffer buf[3]; /* rowptr, colind, values; or the dense values in buf[2] */
    int held;         /* 1 once the buffers are taken */
    hpls_csr csr;
    hpls_dense dense;
} held_matrix;

static void held_release(held_matrix *m)
{
    if (!m->held)
        return;
    for (int i = 0; i < 3; i++)
        if (m->buf[i].obj)
            PyBuffer_Release(&m->buf[i]);
    memset(m, 0, sizeof *m);
}

/* Takes the CSR buffers into m (m->csr then points at them); sizes checked
 * here so that hpls never reads past a buffer. */
static int held_csr(held_matrix *m, PyObject *rowptr, PyObject *colind, PyObject *val,
                    Py_ssize_t nrows, Py_ssize_t ncols)
{
    memset(m, 0, sizeof *m);
    if (get_buffer(rowptr, &m->buf[0], 'q', 0, "indptr") != 0)
        return -1;
    if (get_buffer(colind, &m->buf[1], 'i', 0, "indices") != 0) {
        PyBuffer_Release(&m->buf[0]);
        return -1;
    }
    if (get_buffer(val, &m->buf[2], 'd', 0, "data") != 0) {
        PyBuffer_Release(&m->buf[0]);
        PyBuffer_Release(&m->buf[1]);
        return -1;
    }
    m->held = 1;
    const hpls_int *rp = m->buf[0].buf;
    if (nrows < 0 || ncols < 0 || count_of(&m->buf[0]) != nrows + 1 ||
        count_of(&m->buf[1]) != count_of(&m->buf[2]) || rp[nrows] != count_of(&m->buf[1])) {
        PyErr_Format(PyExc_ValueError,
                     "CSR matrix %zd x %zd: indptr has %zd entries (need %zd), indices %zd, "
                     "data %zd (need indptr[-1])",
                     nrows, ncols, count_of(&m->buf[0]), nrows + 1, count_of(&m->buf[1]),
                     count_of(&m->buf[2]));
        held_release(m);
        return -1;
    }
    m->csr = (hpls_csr){.nrows = nrows,
                        .ncols = ncols,
                        .nnz = count_of(&m->buf[2]),
                        .rowptr = m->buf[0].buf,
                        .colind = m->buf[1].buf,
                        .val = m->buf[2].buf};
    return 0;
}

/* A matrix-free operator or preconditioner given by Python callables f(x, y)
 * that write y from x (memoryviews of n float64, valid during the call only). */
typedef struct shell_ctx {
    PyObject *apply, *apply_t; /* apply_t may be NULL */
} shell_ctx;

/* Calls fn(x, y) under the GIL; nonzero (HPLS_ERR_CALLBACK for hpls) when it
 * raised, the exception kept for the caller of the solve. */
static int shell_call(PyObject *fn, hpls_int n, const hpls_real *x, hpls_real *y)
{
    PyGILState_STATE g = PyGILState_Ensure();
    Py_ssize_t bytes = (Py_ssize_t)n * (Py_ssize_t)sizeof *x;
    PyObject *xv = PyMemoryView_FromMemory((char *)(uintptr_t)x, bytes, PyBUF_READ);
    PyObject *yv = xv ? PyMemoryView_FromMemory((char *)y, bytes, PyBUF_WRITE) : NULL;
    PyObject *r = yv ? PyObject_CallFunctionObjArgs(fn, xv, yv, NULL) : NULL;
    int rc = r ? 0 : 1;
    Py_XDECREF(r);
    /* the views must not outlive hpls's vectors: release them (a view still
     * exported by an object the callable kept is then left to that object) */
    PyObject *exc_type, *exc, *tb;
    PyErr_Fetch(&exc_type, &exc, &tb);
    for (int i = 0; i < 2; i++) {
        PyObject *v = i ? yv : xv;
        if (!v)
            continue;
        PyObject *done = PyObject_CallMethod(v, "release", NULL);
        if (done)
            Py_DECREF(done);
        else
            PyErr_Clear();
        Py_DECREF(v);
    }
    PyErr_Restore(exc_type, exc, tb);
    PyGILState_Release(g);
    return rc;
}

static int shell_apply(void *ctx, hpls_int n, const hpls_real *x, hpls_real *y)
{
    return shell_call(((shell_ctx *)ctx)->apply, n, x, y);
}

static int shell_apply_t(void *ctx, hpls_int n, const hpls_real *x, hpls_real *y)
{
    return shell_call(((shell_ctx *)ctx)->apply_t, n, x, y);
}

/* Takes the callables of args (n, apply, apply_t or None) into c. */
static int shell_take(shell_ctx *c, PyObject *args, Py_ssize_t *n)
{
    PyObject *f, *ft;
    if (!PyArg_ParseTuple(args, "nOO", n, &f, &ft))
        return -1;
    if (!PyCallable_Check(f) || (ft != Py_None && !PyCallable_Check(ft))) {
        PyErr_SetString(PyExc_TypeError, "setup_shell: apply and apply_t must be callables");
        return -1;
    }
    Py_INCREF(f);
    Py_XSETREF(c->apply, f);
    Py_XINCREF(ft == Py_None ? NULL : ft);
    Py_XSETREF(c->apply_t, ft == Py_None ? NULL : ft);
    return 0;
}

static void shell_clear(shell_ctx *c)
{
    Py_CLEAR(c->apply);
    Py_CLEAR(c->apply_t);
}

/* update_values, first half: takes the new arrays (args: indptr, indices, data)
 * into m, for A's sizes, and points A->csr at them; hpls keeps the address of
 * the setup's hpls_csr, so the struct stays and its arrays change. */
static int held_update_begin(held_matrix *A, PyObject *args, held_matrix *m, hpls_csr *old)
{
    PyObject *rp, *ci, *v;
    if (!PyArg_ParseTuple(args, "OOO", &rp, &ci, &v))
        return -1;
    if (!A->held || !A->csr.rowptr) {
        PyErr_SetString(hpls_error, "update_values: no sparse matrix set up");
        return -1;
    }
    if (held_csr(m, rp, ci, v, (Py_ssize_t)A->csr.nrows, (Py_ssize_t)A->csr.ncols) != 0)
        return -1;
    *old = A->csr;
    A->csr = m->csr;
    return 0;
}

/* update_values, second half: keeps the new arrays (ok), or goes back to the old. */
static void held_update_end(held_matrix *A, held_matrix *m, const hpls_csr *old, int ok)
{
    if (!ok) {
        A->csr = *old;
        held_release(m);
        return;
    }
    for (int i = 0; i < 3; i++) {
        PyBuffer_Release(&A->buf[i]);
        A->buf[i] = m->buf[i];
    }
}

/* ---- Solver ------------------------------------------------------------ */
typedef struct SolverObject {
    PyObject_HEAD hpls_solver *s;
    held_matrix A;        /* the matrix of the setup (hpls reads it during solves) */
    PyObject *precond;    /* the Precond given with set_precond, kept alive */
    shell_ctx op;         /* A as Python callables (setup_shell) */
    int busy;             /* a call runs without the GIL: a second one is refused */
    int interrupted;      /* a signal handler raised during this solve */
    struct timespec last; /* time of the last look for a signal */
} SolverObject;

static PyTypeObject SolverType;
static PyTypeObject PrecondType;

static double seconds_since(const struct timespec *t0, struct timespec *now)
{
    clock_gettime(CLOCK_MONOTONIC, now);
    return (double)(now->tv_sec - t0->tv_sec) + 1e-9 * (double)(now->tv_nsec - t0->tv_nsec);
}

/* The monitor: every SIGNAL_CHECK_S seconds, takes the GIL and runs Python's
 * signal handlers; an exception there (KeyboardInterrupt) stops the solve
 * (HPLS_STOPPED_USER) and stays set for the caller to raise. */
static int check_signals(void *ctx, hpls_int iteration, double resnorm, double relres)
{
    (void)iteration;
    (void)resnorm;
    (void)relres;
    SolverObject *self = ctx;
    if (self->interrupted)
        return 1;
    struct timespec now;
    if (seconds_since(&self->last, &now) < SIGNAL_CHECK_S)
        return 0;
    self->last = now;
    PyGILState_STATE g = PyGILState_Ensure();
    self->interrupted = PyErr_CheckSignals() != 0;
    PyGILState_Release(g);
    return self->interrupted;
}

static int solver_claim(SolverObject *self)
{
    if (self->busy) {
        PyErr_SetString(hpls_error, "this Solver is in use by another thread");
        return -1;
    }
    self->busy = 1;
    return 0;
}

static PyObject *solver_failed(SolverObject *self, hpls_status st, const char *where)
{
    return raise_status(st, where, hpls_solver_message(self->s));
}

static int Solver_init(SolverObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"options", NULL};
    const char *options = "";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|s", kwlist, &options))
        return -1;
    if (self->s) {
        PyErr_SetString(hpls_error, "Solver already initialised");
        return -1;
    }
    hpls_status st = hpls_solver_create(&self->s);
    if (st != HPLS_OK) {
        raise_status(st, "hpls_solver_create", hpls_last_error());
        return -1;
    }
    st = hpls_solver_set_options(self->s, options);
    if (st == HPLS_OK)
        st = hpls_solver_set_monitor(self->s, check_signals, self);
    if (st != HPLS_OK) {
        solver_failed(self, st, "options");
        return -1;
    }
    return 0;
}

static void Solver_dealloc(SolverObject *self)
{
    hpls_solver_destroy(self->s);
    held_release(&self->A);
    Py_XDECREF(self->precond);
    shell_clear(&self->op);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int solver_ready(SolverObject *self)
{
    if (!self->s) {
        PyErr_SetString(hpls_error, "Solver not initialised");
        return -1;
    }
    return solver_claim(self);
}

/* setup(indptr, indices, data, nrows, ncols): builds the method for a CSR matrix. */
static PyObject *Solver_setup(SolverObject *self, PyObject *args)
{
    PyObject *rp, *ci, *v;
    Py_ssize_t nrows, ncols;
    if (!PyArg_ParseTuple(args, "OOOnn", &rp, &ci, &v, &nrows, &ncols) || solver_ready(self))
        return NULL;
    held_matrix m;
    if (held_csr(&m, rp, ci, v, nrows, ncols) != 0) {
        self->busy = 0;
        return NULL;
    }
    held_release(&self->A); /* the setup below replaces the previous one */
    self->A = m;
    hpls_status st;
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = hpls_solver_setup(self->s, &self->A.csr);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    if (st != HPLS_OK) {
        held_release(&self->A);
        return solver_failed(self, st, "setup");
    }
    Py_RETURN_NONE;
}

/* setup_dense(values, nrows, ncols): values row-major. */
static PyObject *Solver_setup_dense(SolverObject *self, PyObject *args)
{
    PyObject *v;
    Py_ssize_t nrows, ncols;
    if (!PyArg_ParseTuple(args, "Onn", &v, &nrows, &ncols) || solver_ready(self))
        return NULL;
    held_matrix m;
    memset(&m, 0, sizeof m);
    if (get_buffer(v, &m.buf[2], 'd', 0, "A") != 0) {
        self->busy = 0;
        return NULL;
    }
    m.held = 1;
    if (nrows < 0 || ncols < 0 || count_of(&m.buf[2]) != nrows * ncols) {
        held_release(&m);
        self->busy = 0;
        return PyErr_Format(PyExc_ValueError, "dense matrix %zd x %zd: %zd values", nrows, ncols,
                            count_of(&m.buf[2]));
    }
    m.dense = (hpls_dense){.nrows = nrows, .ncols = ncols, .data = m.buf[2].buf};
    held_release(&self->A);
    self->A = m;
    hpls_status st;
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = hpls_solver_setup_dense(self->s, &self->A.dense);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    if (st != HPLS_OK) {
        held_release(&self->A);
        return solver_failed(self, st, "setup");
    }
    Py_RETURN_NONE;
}

/* setup_shell(n, apply, apply_t or None): A given by Python callables f(x, y). */
static PyObject *Solver_setup_shell(SolverObject *self, PyObject *args)
{
    Py_ssize_t n;
    if (solver_ready(self))
        return NULL;
    if (shell_take(&self->op, args, &n) != 0) {
        self->busy = 0;
        return NULL;
    }
    held_release(&self->A);
    hpls_status st;
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = hpls_solver_setup_shell(self->s, n, shell_apply, self->op.apply_t ? shell_apply_t : NULL,
                                 &self->op);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    if (st != HPLS_OK)
        return solver_failed(self, st, "setup");
    Py_RETURN_NONE;
}

/* update_values(indptr, indices, data): new values, the setup's pattern. */
static PyObject *Solver_update_values(SolverObject *self, PyObject *args)
{
    held_matrix m;
    hpls_csr old;
    if (solver_ready(self))
        return NULL;
    if (held_update_begin(&self->A, args, &m, &old) != 0) {
        self->busy = 0;
        return NULL;
    }
    hpls_status st;
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = hpls_solver_update_values(self->s, &self->A.csr);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    held_update_end(&self->A, &m, &old, st == HPLS_OK);
    if (st != HPLS_OK)
        return solver_failed(self, st, "update_values");
    Py_RETURN_NONE;
}

/* Ends a solve: the exception of an interrupting signal, or hpls's failure. */
static PyObject *solve_done(SolverObject *self, hpls_status st, const char *where)
{
    self->busy = 0;
    if (self->interrupted) {
        self->interrupted = 0;
        if (PyErr_Occurred())
            return NULL;
    }
    if (st == HPLS_ERR_CALLBACK && PyErr_Occurred())
        return NULL; /* the exception the user's operator or preconditioner raised */
    if (st != HPLS_OK)
        return solver_failed(self, st, where);
    Py_RETURN_NONE;
}

/* solve(b, x): x holds the initial guess (initial_guess=given) and receives the solution. */
static PyObject *Solver_solve(SolverObject *self, PyObject *args)
{
    PyObject *bo, *xo;
    Py_buffer bb, xb;
    if (!PyArg_ParseTuple(args, "OO", &bo, &xo) || solver_ready(self))
        return NULL;
    if (get_buffer(bo, &bb, 'd', 0, "b") != 0) {
        self->busy = 0;
        return NULL;
    }
    if (get_buffer(xo, &xb, 'd', 1, "x") != 0) {
        PyBuffer_Release(&bb);
        self->busy = 0;
        return NULL;
    }
    hpls_vec b = {.n = count_of(&bb), .data = bb.buf};
    hpls_vec x = {.n = count_of(&xb), .data = xb.buf};
    hpls_status st;
    clock_gettime(CLOCK_MONOTONIC, &self->last);
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = hpls_solver_solve(self->s, &b, &x);
    PyEval_RestoreThread(ts);
    PyBuffer_Release(&bb);
    PyBuffer_Release(&xb);
    return solve_done(self, st, "solve");
}

static PyObject *info_tuple(const hpls_info *in)
{
    return Py_BuildValue("(isinddddiidi)", (int)in->reason, hpls_reason_str(in->reason),
                         hpls_reason_converged(in->reason), (Py_ssize_t)in->iterations, in->relres,
                         in->resnorm, in->setup_s, in->solve_s, in->precond_norm, in->threads,
                         in->rcond, in->ill_conditioned);
}

/* solve_many(B, X, k): B and X k x n C-contiguous (column-major n x k); returns
 * the k info tuples. */
static PyObject *Solver_solve_many(SolverObject *self, PyObject *args)
{
    PyObject *bo, *xo;
    Py_ssize_t k;
    Py_buffer bb, xb;
    if (!PyArg_ParseTuple(args, "OOn", &bo, &xo, &k))
        return NULL;
    if (k < 1)
        return PyErr_Format(PyExc_ValueError, "solve_many: %zd right-hand sides", k);
    hpls_info *infos = PyMem_Calloc((size_t)k, sizeof *infos);
    if (!infos)
        return PyErr_NoMemory();
    if (solver_ready(self)) {
        PyMem_Free(infos);
        return NULL;
    }
    if (get_buffer(bo, &bb, 'd', 0, "B") != 0) {
        self->busy = 0;
        PyMem_Free(infos);
        return NULL;
    }
    if (get_buffer(xo, &xb, 'd', 1, "X") != 0) {
        PyBuffer_Release(&bb);
        self->busy = 0;
        PyMem_Free(infos);
        return NULL;
    }
    PyObject *out = NULL;
    if (count_of(&bb) != count_of(&xb) || count_of(&bb) % k != 0) {
        self->busy = 0;
        PyErr_Format(PyExc_ValueError, "solve_many: B has %zd values, X %zd, for %zd columns",
                     count_of(&bb), count_of(&xb), k);
        goto release;
    }
    hpls_status st;
    clock_gettime(CLOCK_MONOTONIC, &self->last);
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = hpls_solver_solve_many(self->s, k, bb.buf, xb.buf, infos);
    PyEval_RestoreThread(ts);
    out = solve_done(self, st, "solve_many");
    if (!out)
        goto release;
    Py_DECREF(out);
    out = PyList_New(k);
    for (Py_ssize_t j = 0; out && j < k; j++) {
        PyObject *t = info_tuple(&infos[j]);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, j, t);
    }
release:
    PyBuffer_Release(&bb);
    PyBuffer_Release(&xb);
    PyMem_Free(infos);
    return out;
}

/* info(): (reason, reason name, converged, iterations, relres, resnorm,
 * setup_s, solve_s, precond_norm, threads, rcond, ill_conditioned) of the last solve. */
static PyObject *Solver_info(SolverObject *self, PyObject *noargs)
{
    (void)noargs;
    hpls_info in;
    hpls_status st = hpls_solver_get_info(self->s, &in);
    if (st != HPLS_OK)
        return solver_failed(self, st, "info");
    return info_tuple(&in);
}

/* history(): (iterations, relres, seconds) as three lists. */
static PyObject *Solver_history(SolverObject *self, PyObject *noargs)
{
    (void)noargs;
    hpls_int count;
    const hpls_int *its;
    const double *rel, *sec;
    hpls_status st = hpls_solver_history(self->s, &count, &its, &rel, &sec);
    if (st != HPLS_OK)
        return solver_failed(self, st, "history");
    PyObject *a = PyList_New(count), *b = PyList_New(count), *c = PyList_New(count);
    for (hpls_int i = 0; a && b && c && i < count; i++) {
        PyObject *vi = PyLong_FromLongLong(its[i]), *vr = PyFloat_FromDouble(rel[i]),
                 *vs = PyFloat_FromDouble(sec[i]);
        if (!vi || !vr || !vs) {
            Py_XDECREF(vi);
            Py_XDECREF(vr);
            Py_XDECREF(vs);
            Py_CLEAR(a);
            break;
        }
        PyList_SET_ITEM(a, i, vi);
        PyList_SET_ITEM(b, i, vr);
        PyList_SET_ITEM(c, i, vs);
    }
    PyObject *out = a && b && c ? PyTuple_Pack(3, a, b, c) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(c);
    return out;
}

static PyObject *Solver_get_option(SolverObject *self, PyObject *args)
{
    const char *key;
    if (!PyArg_ParseTuple(args, "s", &key))
        return NULL;
    const char *v = hpls_solver_get_option(self->s, key);
    if (!v)
        Py_RETURN_NONE;
    return PyUnicode_FromString(v);
}

/* set_precond(P or None): a Precond object instead of the precond option
 * (at the next setup); the Solver keeps it alive. */
static PyObject *Solver_set_precond(SolverObject *self, PyObject *args);

static PyMethodDef Solver_methods[] = {
    {"setup", (PyCFunction)Solver_setup, METH_VARARGS,
     "setup(indptr, indices, data, nrows, ncols)"},
    {"setup_dense", (PyCFunction)Solver_setup_dense, METH_VARARGS,
     "setup_dense(values, nrows, ncols)"},
    {"setup_shell", (PyCFunction)Solver_setup_shell, METH_VARARGS,
     "setup_shell(n, apply, apply_t or None)"},
    {"update_values", (PyCFunction)Solver_update_values, METH_VARARGS,
     "update_values(indptr, indices, data)"},
    {"solve", (PyCFunction)Solver_solve, METH_VARARGS, "solve(b, x)"},
    {"solve_many", (PyCFunction)Solver_solve_many, METH_VARARGS, "solve_many(B, X, k) -> infos"},
    {"info", (PyCFunction)Solver_info, METH_NOARGS, "info() of the last solve"},
    {"history", (PyCFunction)Solver_history, METH_NOARGS, "history() -> (its, relres, seconds)"},
    {"get_option", (PyCFunction)Solver_get_option, METH_VARARGS, "get_option(key)"},
    {"set_precond", (PyCFunction)Solver_set_precond, METH_VARARGS, "set_precond(P or None)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hpls._core.Solver",
    .tp_basicsize = sizeof(SolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "hpls_solver on buffers (use hpls.Solver)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
};

/* ---- Precond ----------------------------------------------------------- */
typedef struct PrecondObject {
    PyObject_HEAD hpls_precond *P;
    held_matrix A; /* the matrix of the setup */
    int busy;      /* setup / update_values running without the GIL */
    int applying;  /* applies running without the GIL (hpls serialises them) */
    shell_ctx op;  /* M^-1 as Python callables (setup_shell) */
} PrecondObject;

static PyObject *precond_failed(PrecondObject *self, hpls_status st, const char *where)
{
    return raise_status(st, where, hpls_precond_message(self->P));
}

static int Precond_init(PrecondObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"options", NULL};
    const char *options = "";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|s", kwlist, &options))
        return -1;
    if (self->P) {
        PyErr_SetString(hpls_error, "Precond already initialised");
        return -1;
    }
    hpls_status st = hpls_precond_create(&self->P);
    if (st != HPLS_OK) {
        raise_status(st, "hpls_precond_create", hpls_last_error());
        return -1;
    }
    st = hpls_precond_set_options(self->P, options);
    if (st != HPLS_OK) {
        precond_failed(self, st, "options");
        return -1;
    }
    return 0;
}

static void Precond_dealloc(PrecondObject *self)
{
    hpls_precond_destroy(self->P);
    held_release(&self->A);
    shell_clear(&self->op);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int precond_claim(PrecondObject *self)
{
    if (!self->P) {
        PyErr_SetString(hpls_error, "Precond not initialised");
        return -1;
    }
    if (self->busy || self->applying) {
        PyErr_SetString(hpls_error, "this Preconditioner is in use by another thread");
        return -1;
    }
    self->busy = 1;
    return 0;
}

/* setup(indptr, indices, data, n, flags) */
static PyObject *Precond_setup(PrecondObject *self, PyObject *args)
{
    PyObject *rp, *ci, *v;
    Py_ssize_t n;
    unsigned int flags;
    if (!PyArg_ParseTuple(args, "OOOnI", &rp, &ci, &v, &n, &flags) || precond_claim(self))
        return NULL;
    held_matrix m;
    if (held_csr(&m, rp, ci, v, n, n) != 0) {
        self->busy = 0;
        return NULL;
    }
    held_release(&self->A);
    self->A = m;
    hpls_status st;
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = hpls_precond_setup(self->P, &self->A.csr, flags);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    if (st != HPLS_OK) {
        held_release(&self->A);
        return precond_failed(self, st, "setup");
    }
    Py_RETURN_NONE;
}

/* setup_shell(n, apply, apply_t or None): M^-1 given by Python callables f(r, z)
 * (hpls_precond_create_shell), in place of the object of the options. */
static PyObject *Precond_setup_shell(PrecondObject *self, PyObject *args)
{
    Py_ssize_t n;
    if (precond_claim(self))
        return NULL;
    self->busy = 0;
    if (self->A.held || self->op.apply) {
        PyErr_SetString(hpls_error, "setup_shell: this Precond is already set up");
        return NULL;
    }
    if (shell_take(&self->op, args, &n) != 0)
        return NULL;
    hpls_precond *P;
    hpls_status st = hpls_precond_create_shell(
        n, shell_apply, self->op.apply_t ? shell_apply_t : NULL, &self->op, &P);
    if (st != HPLS_OK)
        return raise_status(st, "setup_shell", hpls_last_error());
    hpls_precond_destroy(self->P);
    self->P = P;
    Py_RETURN_NONE;
}

/* update_values(indptr, indices, data): the values changed, not the pattern. */
static PyObject *Precond_update_values(PrecondObject *self, PyObject *args)
{
    held_matrix m;
    hpls_csr old;
    if (precond_claim(self))
        return NULL;
    if (held_update_begin(&self->A, args, &m, &old) != 0) {
        self->busy = 0;
        return NULL;
    }
    hpls_status st;
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = hpls_precond_update_values(self->P, &self->A.csr);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    held_update_end(&self->A, &m, &old, st == HPLS_OK);
    if (st != HPLS_OK)
        return precond_failed(self, st, "update_values");
    Py_RETURN_NONE;
}

/* z = M^-1 r (transpose = 0) or M^-T r (1). */
static PyObject *precond_apply(PrecondObject *self, PyObject *args, int transpose)
{
    PyObject *ro, *zo;
    Py_buffer rb, zb;
    if (!PyArg_ParseTuple(args, "OO", &ro, &zo))
        return NULL;
    if (!self->P || self->busy) {
        PyErr_SetString(hpls_error, "this Preconditioner is being set up by another thread");
        return NULL;
    }
    if (get_buffer(ro, &rb, 'd', 0, "r") != 0)
        return NULL;
    if (get_buffer(zo, &zb, 'd', 1, "z") != 0) {
        PyBuffer_Release(&rb);
        return NULL;
    }
    hpls_vec r = {.n = count_of(&rb), .data = rb.buf};
    hpls_vec z = {.n = count_of(&zb), .data = zb.buf};
    hpls_status st;
    self->applying++;
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = transpose ? hpls_precond_apply_transpose(self->P, &r, &z)
                   : hpls_precond_apply(self->P, &r, &z);
    PyEval_RestoreThread(ts);
    self->applying--;
    PyBuffer_Release(&rb);
    PyBuffer_Release(&zb);
    if (st != HPLS_OK)
        return precond_failed(self, st, transpose ? "apply_transpose" : "apply");
    Py_RETURN_NONE;
}

static PyObject *Precond_apply(PrecondObject *self, PyObject *args)
{
    return precond_apply(self, args, 0);
}

static PyObject *Precond_apply_transpose(PrecondObject *self, PyObject *args)
{
    return precond_apply(self, args, 1);
}

/* info(): (setup seconds, triangular-solve strategy or None) */
static PyObject *Precond_info(PrecondObject *self, PyObject *noargs)
{
    (void)noargs;
    double setup_s;
    const char *strategy;
    hpls_status st = hpls_precond_get_info(self->P, &setup_s, &strategy);
    if (st != HPLS_OK)
        return precond_failed(self, st, "info");
    return Py_BuildValue("(dz)", setup_s, strategy);
}

static PyObject *Precond_get_option(PrecondObject *self, PyObject *args)
{
    const char *key;
    if (!PyArg_ParseTuple(args, "s", &key))
        return NULL;
    const char *v = hpls_precond_get_option(self->P, key);
    if (!v)
        Py_RETURN_NONE;
    return PyUnicode_FromString(v);
}

static PyMethodDef Precond_methods[] = {
    {"setup", (PyCFunction)Precond_setup, METH_VARARGS, "setup(indptr, indices, data, n, flags)"},
    {"setup_shell", (PyCFunction)Precond_setup_shell, METH_VARARGS,
     "setup_shell(n, apply, apply_t or None)"},
    {"update_values", (PyCFunction)Precond_update_values, METH_VARARGS,
     "update_values(indptr, indices, data)"},
    {"apply", (PyCFunction)Precond_apply, METH_VARARGS, "apply(r, z): z = M^-1 r"},
    {"apply_transpose", (PyCFunction)Precond_apply_transpose, METH_VARARGS,
     "apply_transpose(r, z): z = M^-T r"},
    {"info", (PyCFunction)Precond_info, METH_NOARGS, "info() -> (setup_s, strategy)"},
    {"get_option", (PyCFunction)Precond_get_option, METH_VARARGS, "get_option(key)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject PrecondType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hpls._core.Precond",
    .tp_basicsize = sizeof(PrecondObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "hpls_precond on buffers (use hpls.Preconditioner)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Precond_init,
    .tp_dealloc = (destructor)Precond_dealloc,
    .tp_methods = Precond_methods,
};

static PyObject *Solver_set_precond(SolverObject *self, PyObject *args)
{
    PyObject *p;
    if (!PyArg_ParseTuple(args, "O", &p) || solver_ready(self))
        return NULL;
    self->busy = 0;
    if (p != Py_None && !PyObject_TypeCheck(p, &PrecondType))
        return PyErr_Format(PyExc_TypeError, "set_precond: expected a Precond or None");
    hpls_status st =
        hpls_solver_set_precond(self->s, p == Py_None ? NULL : ((PrecondObject *)p)->P);
    if (st != HPLS_OK)
        return solver_failed(self, st, "set_precond");
    Py_XINCREF(p == Py_None ? NULL : p);
    Py_XSETREF(self->precond, p == Py_None ? NULL : p);
    Py_RETURN_NONE;
}

/* ---- module functions -------------------------------------------------- */

/* tridiag_solve(method, dl, d, du, X, k, partitions, delta, threads, check): X (k
 * right-hand sides of n values one after another) becomes the solutions; with
 * check, hpls_tridiag_rcond first (a singular T raises) and its rcond returned,
 * else None. */
static PyObject *tridiag_solve(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *name;
    PyObject *o[4];
    Py_ssize_t k, partitions;
    double delta;
    int threads, check;
    if (!PyArg_ParseTuple(args, "sOOOOnndip", &name, &o[0], &o[1], &o[2], &o[3], &k, &partitions,
                          &delta, &threads, &check))
        return NULL;
    hpls_tridiag_method m;
    hpls_status st = hpls_tridiag_method_from_name(name, &m);
    if (st != HPLS_OK)
        return raise_status(st, "tridiag_solve", hpls_last_error());
    Py_buffer b[4];
    static const char *what[4] = {"dl", "d", "du", "b"};
    int got = 0;
    PyObject *out = NULL;
    for (; got < 4; got++)
        if (get_buffer(o[got], &b[got], 'd', got == 3, what[got]) != 0)
            goto release;
    Py_ssize_t n = count_of(&b[1]);
    if (count_of(&b[0]) != n || count_of(&b[2]) != n || k < 1 || count_of(&b[3]) != n * k) {
        PyErr_Format(PyExc_ValueError,
                     "tridiag_solve: dl, d, du have %zd, %zd, %zd values, b %zd for %zd "
                     "right-hand sides",
                     count_of(&b[0]), n, count_of(&b[2]), count_of(&b[3]), k);
        goto release;
    }
    hpls_tridiag T = {.n = n, .dl = b[0].buf, .d = b[1].buf, .du = b[2].buf};
    hpls_tridiag_opts opts = {.partitions = partitions, .delta = delta, .threads = threads};
    double rcond = 0.0;
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = check ? hpls_tridiag_rcond(&T, &rcond) : HPLS_OK;
    if (st == HPLS_OK)
        st = hpls_tridiag_solve(&T, m, &opts, k, b[3].buf, b[3].buf);
    PyEval_RestoreThread(ts);
    if (st != HPLS_OK)
        raise_status(st, "tridiag_solve", hpls_last_error());
    else if (check)
        out = PyFloat_FromDouble(rcond);
    else {
        Py_INCREF(Py_None);
        out = Py_None;
    }
release:
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&b[i]);
    return out;
}

/* gen_csr(spec): hpls's generator ("gas:n=1e6") -> (nrows, ncols, rowptr, colind,
 * values, b), the arrays as bytearrays (int64, int32, float64, float64) copied
 * out of the generated matrix. */
static PyObject *gen_csr(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *spec;
    if (!PyArg_ParseTuple(args, "s", &spec))
        return NULL;
    hpls_csr *A = NULL;
    hpls_vec *b = NULL;
    hpls_status st;
    PyThreadState *ts = PyEval_SaveThread(); /* hpls runs without the GIL */
    st = hpls_gen_csr(spec, &A, &b);
    PyEval_RestoreThread(ts);
    if (st != HPLS_OK)
        return raise_status(st, "generate", hpls_last_error());
    PyObject *out = Py_BuildValue(
        "(nnNNNN)", (Py_ssize_t)A->nrows, (Py_ssize_t)A->ncols,
        PyByteArray_FromStringAndSize((const char *)A->rowptr,
                                      (Py_ssize_t)((A->nrows + 1) * sizeof *A->rowptr)),
        PyByteArray_FromStringAndSize((const char *)A->colind,
                                      (Py_ssize_t)(A->nnz * sizeof *A->colind)),
        PyByteArray_FromStringAndSize((const char *)A->val, (Py_ssize_t)(A->nnz * sizeof *A->val)),
        PyByteArray_FromStringAndSize((const char *)b->data, (Py_ssize_t)(b->n * sizeof *b->data)));
    hpls_csr_destroy(A);
    hpls_vec_destroy(b);
    return out;
}

static PyObject *version(PyObject *mod, PyObject *noargs)
{
    (void)mod;
    (void)noargs;
    return PyUnicode_FromString(hpls_version(NULL, NULL, NULL));
}

static PyObject *help(PyObject *mod, PyObject *noargs)
{
    (void)mod;
    (void)noargs;
    return PyUnicode_FromString(hpls_solver_help());
}

static PyMethodDef module_methods[] = {
    {"tridiag_solve", tridiag_solve, METH_VARARGS,
     "tridiag_solve(method, dl, d, du, X, k, partitions, delta, threads)"},
    {"gen_csr", gen_csr, METH_VARARGS,
     "gen_csr(spec) -> (nrows, ncols, rowptr, colind, values, b)"},
    {"version", version, METH_NOARGS, "hpls_version()"},
    {"help", help, METH_NOARGS, "hpls_solver_help(): every option, solver and preconditioner"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "_core",
                                    "hpls's C API on buffers (use the hpls package)",
                                    -1,
                                    module_methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&SolverType) < 0 || PyType_Ready(&PrecondType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    hpls_error = PyErr_NewException("hpls.Error", PyExc_RuntimeError, NULL);
    if (!hpls_error || PyModule_AddObject(m, "Error", hpls_error) < 0 ||
        PyModule_AddIntConstant(m, "PRECOND_TRANSPOSE", HPLS_PRECOND_TRANSPOSE) < 0) {
        Py_XDECREF(hpls_error);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(hpls_error); /* the module's reference was stolen; keep ours */
    Py_INCREF(&SolverType);
    Py_INCREF(&PrecondType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0 ||
        PyModule_AddObject(m, "Precond", (PyObject *)&PrecondType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
