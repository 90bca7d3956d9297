/* SPDX-License-Identifier: BSD-3-Clause */
/* gmres.c: restarted GMRES(m) (Saad & Schultz 1986; Saad, Iterative Methods,
 * Alg. 6.9 and 9.5) and flexible FGMRES(m) (Saad 1993; Alg. 9.6), the Arnoldi
 * process orthogonalised by classical Gram-Schmidt twice (CGS2: orthogonal to
 * working precision, Giraud, Langou, Rozloznik 2005) with the second pass
 * delayed by one step (DCGS2: Swirydowicz, Langou, Ananthan, Yang, Thomas 2020;
 * Bielich et al. 2022), so that a step reads the basis twice and makes one
 * reduction, as one classical pass would.
 *
 * Step j holds v_0..v_{j-1} final and u_j, the first-pass vector of the last
 * column scaled by s_j, which the second pass has not yet reached:
 *   z = A M^-1 u_j                                   (the product of the pending vector)
 *   one sweep: c = V^T u_j, b = V^T z, (u_j,u_j), (u_j,z), (z,z)
 *   nu_j^2 = (u_j,u_j) - ||c||^2; v_j = (u_j - V c) / nu_j  (the delayed second pass)
 *   column j-1 of H, now complete: A M^-1 V = V H gives A M^-1 v_j = (z - V H c) / nu_j,
 *     h_{0..j-1,j-1} = (f_{j-1} - H c_{j-1}) / nu_{j-1} + (s_j / nu_{j-1}) c,
 *     h_{j,j-1} = s_j nu_j / nu_{j-1}
 *   f = V_{j+1}^T z: b, and (v_j, z) = ((u_j,z) - c.b) / nu_j
 *   one sweep: v_j as above, and u_{j+1} = (z - V_{j+1} f) / s_{j+1}
 * (H c uses H before the rotations: a rotated copy R gives the least squares.)
 * A column is thus complete one product later: a solve that converges makes
 * one product it does not use, and the end of a cycle one sweep without a
 * product.  nu_j by Pythagoras is exact when the second pass changes u_j
 * little, as it does unless the first pass cancelled nearly all of it; then
 * v_j is finished and measured explicitly (one sweep and reduction more).
 * Givens rotations keep R upper triangular; |g_{j+1}| = ||b - A x_j||.
 * x += M^-1 V y (FGMRES: x += Z y, Z's columns corrected as V's), R y = g.
 * Right preconditioning by default, so |g_{j+1}| is the true residual norm (in
 * exact arithmetic) and convergence is confirmed on b - A x.  pc_side=left
 * iterates on M^-1 A, where |g_{j+1}| = ||M^-1 r||, which can be far below
 * ||r|| (by up to cond(M)): the test then uses |g_{j+1}| times
 * ||r|| / ||M^-1 r|| of the cycle's start as its estimate of ||r||, and
 * confirms on b - A x (a failed confirmation restarts with the ratio
 * measured again); norm=preconditioned instead tests ||M^-1 r|| / ||M^-1 b||
 * itself, unconfirmed (PETSc's KSP_NORM_PRECONDITIONED; info.precond_norm).
 * An iteration is one column (one product with A).  h_{j+1,j} = 0 is the
 * lucky breakdown: the solution lies in the current space and is exact.
 * Traffic per step j: one SpMV + two reads of v_0..v_{j-1} + about 8n (FGMRES:
 * a read of z_0..z_{j-1} more). */
#include "iter/method.h"

#include <math.h>

typedef struct gmres_data {
    hpls_backend *be; /* owns the vectors */
    hpls_int m;       /* restart length */
    hpls_dvec **v;    /* m+1: the basis, the pending vector and the product */
    hpls_dvec **z;    /* FGMRES: m preconditioned vectors, else NULL */
    double *h;        /* (m+1) x m Hessenberg matrix H, column j at h + j*(m+1) */
    double *rt;       /* H rotated to upper triangular, same layout */
    double *cs, *sn, *g, *y;
    double *dots;     /* 2m + 3: one sweep's dots */
    double *c, *cprev, *f, *hc, *a, *b; /* m+1 each */
    double rnorm;                       /* ||b - A x|| at the last explicit residual */
    double scale; /* ||r|| / ||M^-1 r|| there when left and tested on ||r||, else 1 */
} gmres_data;

static void free_vectors(hpls_backend *be, hpls_dvec **v, hpls_int count)
{
    for (hpls_int i = 0; v && i < count; i++)
        be->v->release(be, v[i]);
    hpls_free(v);
}

static void destroy_gmres(void *mdata)
{
    gmres_data *G = mdata;
    if (!G)
        return;
    free_vectors(G->be, G->v, G->m + 1);
    free_vectors(G->be, G->z, G->m);
    double *arrays[] = {G->h, G->rt, G->cs, G->sn, G->g, G->y, G->dots,
                        G->c, G->cprev, G->f, G->hc, G->a, G->b};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        hpls_free(arrays[i]);
    hpls_free(G);
}

static hpls_dvec **vectors(hpls_backend *be, hpls_int count, hpls_int n)
{
    hpls_dvec **v = hpls_calloc(count, sizeof *v);
    for (hpls_int i = 0; v && i < count; i++)
        if (be->v->alloc(be, n, &v[i]) != HPLS_OK) {
            free_vectors(be, v, i);
            return NULL;
        }
    return v;
}

static hpls_status setup(hpls_mctx *mc, int flexible)
{
    hpls_int m = mc->opt.restart, n = mc->n;
    if (mc->opt.precnorm && !mc->opt.left)
        return hpls_fail(HPLS_ERR_OPTION, "norm=preconditioned needs pc_side=left (with right "
                                          "preconditioning the residual is the true one)");
    gmres_data *G = hpls_calloc(1, sizeof *G);
    if (!G)
        return HPLS_ERR_NOMEM;
    G->be = mc->be;
    G->m = m;
    G->v = vectors(mc->be, m + 1, n);
    G->z = flexible ? vectors(mc->be, m, n) : NULL;
    G->h = hpls_calloc((m + 1) * m, sizeof *G->h);
    G->rt = hpls_calloc((m + 1) * m, sizeof *G->rt);
    G->cs = hpls_malloc(m, sizeof *G->cs);
    G->sn = hpls_malloc(m, sizeof *G->sn);
    G->g = hpls_malloc(m + 1, sizeof *G->g);
    G->y = hpls_malloc(m, sizeof *G->y);
    G->dots = hpls_malloc(2 * m + 3, sizeof *G->dots);
    double **small[] = {&G->c, &G->cprev, &G->f, &G->hc, &G->a, &G->b};
    int ok = G->v && (!flexible || G->z) && G->h && G->rt && G->cs && G->sn && G->g && G->y &&
             G->dots;
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        ok &= (*small[i] = hpls_calloc(m + 1, sizeof **small[i])) != NULL;
    if (!ok) {
        destroy_gmres(G);
        return HPLS_ERR_NOMEM;
    }
    mc->mdata = G;
    return HPLS_OK;
}

hpls_status hpls_setup_gmres(hpls_mctx *mc)
{
    return setup(mc, 0);
}
hpls_status hpls_setup_fgmres(hpls_mctx *mc)
{
    return setup(mc, 1);
}
void hpls_destroy_gmres(void *mdata) { destroy_gmres(mdata); }

/* r = b - A x, or M^-1 (b - A x) with left preconditioning; returns its norm.
 * Records ||b - A x|| and the scale of the estimates (gmres_data). */
static double residual(hpls_mctx *mc, gmres_data *G, const hpls_dvec *b, const hpls_dvec *x,
                       hpls_dvec *r, hpls_dvec *t)
{
    G->scale = 1.0;
    if (!mc->opt.left)
        return G->rnorm = hpls_m_op_residual(mc, b, x, r);
    G->rnorm = hpls_m_op_residual(mc, b, x, t);
    const hpls_dvec *z = hpls_m_pc_apply(mc, t, r);
    if (z != r)
        hpls_v_copy(mc->be, mc->n, z, r);
    double pn = hpls_v_nrm2(mc->be, mc->n, r);
    if (!mc->opt.precnorm && pn > 0.0)
        G->scale = G->rnorm / pn;
    return pn;
}

/* v[j+1] = A M^-1 v[j] (FGMRES: z_j = M^-1 v[j] kept), or M^-1 A v[j] (left). */
static void product(hpls_mctx *mc, gmres_data *G, hpls_int j, hpls_dvec *t)
{
    hpls_dvec **v = G->v;
    if (mc->opt.left) {
        hpls_m_op_apply(mc, v[j], t);
        const hpls_dvec *z = hpls_m_pc_apply(mc, t, v[j + 1]);
        if (z != v[j + 1])
            hpls_v_copy(mc->be, mc->n, z, v[j + 1]);
        return;
    }
    hpls_dvec *zj = G->z ? G->z[j] : t;
    const hpls_dvec *z = hpls_m_pc_apply(mc, v[j], zj);
    if (G->z && z != zj)
        hpls_v_copy(mc->be, mc->n, z, zj);
    hpls_m_op_apply(mc, z, v[j + 1]);
}

/* ||u - V c|| for the pending u = v[j] with alpha = (u, u): by Pythagoras when
 * that is exact to rounding (the second pass removed under half of ||u||^2),
 * else v[j] is finished here (v[j] = (u - V c) / nu, also z_j for FGMRES when
 * there is one: not at the cycle's end) and *done set. */
static double pending_norm(hpls_mctx *mc, gmres_data *G, hpls_int j, double alpha, int *done)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    double cc = 0.0;
    for (hpls_int i = 0; i < j; i++)
        cc += G->c[i] * G->c[i];
    *done = 0;
    if (isfinite(alpha) && alpha > 1e-280 && alpha < 1e280 && alpha - cc > 0.5 * alpha)
        return sqrt(alpha - cc);
    for (hpls_int i = 0; i < j; i++)
        G->a[i] = -G->c[i];
    int zj = G->z && j < G->m;
    hpls_v_maxpy(be, n, (int)j, G->a, (const hpls_dvec *const *)G->v, 1.0, G->v[j]);
    if (zj)
        hpls_v_maxpy(be, n, (int)j, G->a, (const hpls_dvec *const *)G->z, 1.0, G->z[j]);
    double nu = hpls_v_nrm2(be, n, G->v[j]);
    if (nu > 0.0 && isfinite(nu)) {
        hpls_v_scale(be, n, 1.0 / nu, G->v[j]);
        if (zj)
            hpls_v_scale(be, n, 1.0 / nu, G->z[j]);
    }
    *done = 1;
    return nu;
}

/* Column col of H into R: the earlier rotations, then its own; g updated.
 * Returns the rotated diagonal (0 or not finite: a breakdown). */
static double rotate(gmres_data *G, hpls_int col)
{
    hpls_int m = G->m;
    const double *hj = G->h + col * (m + 1);
    double *rj = G->rt + col * (m + 1), *cs = G->cs, *sn = G->sn, *g = G->g;
    for (hpls_int i = 0; i <= col + 1; i++)
        rj[i] = hj[i];
    for (hpls_int i = 0; i < col; i++) {
        double a = rj[i], c = rj[i + 1];
        rj[i] = cs[i] * a + sn[i] * c;
        rj[i + 1] = -sn[i] * a + cs[i] * c;
    }
    double d = hypot(rj[col], rj[col + 1]);
    if (d == 0.0 || !isfinite(d))
        return d;
    cs[col] = rj[col] / d;
    sn[col] = rj[col + 1] / d;
    rj[col] = d;
    rj[col + 1] = 0.0;
    g[col + 1] = -sn[col] * g[col];
    g[col] = cs[col] * g[col];
    return d;
}

/* One cycle of at most m columns from v[0] = r / beta, starting at iteration
 * *it.  Returns the reason (HPLS_NOT_RUN: the cycle ended without one), the
 * columns done in *ncols. */
static hpls_reason cycle(hpls_mctx *mc, gmres_data *G, hpls_dvec *t, hpls_int *it, hpls_int *ncols)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n, m = G->m;
    hpls_dvec **v = G->v;
    const hpls_dvec *const *V = (const hpls_dvec *const *)v;
    double *h = G->h, *c = G->c, *f = G->f, *d = G->dots;
    double nu = 1.0, nu_prev = 1.0, s_cur = 1.0; /* v_0 is final: nu_0 = 1 */
    hpls_reason why = HPLS_NOT_RUN;
    *ncols = 0;
    for (hpls_int j = 0; j <= m; j++) {
        int last = j == m, done = j == 0;
        double alpha = 1.0, gamma = 0.0, zeta = 0.0;
        if (!last) {
            product(mc, G, j, t);                              /* v[j+1] = z = A M^-1 u_j */
            hpls_v_mdot2(be, n, (int)j, V, v[j], v[j + 1], d); /* the one reduction */
            for (hpls_int i = 0; i < j; i++) {
                c[i] = d[i];
                G->b[i] = d[j + i];
            }
            alpha = d[2 * j];
            gamma = d[2 * j + 1];
            zeta = d[2 * j + 2];
        } else { /* the cycle's end: c and (u, u) of the pending vector alone */
            hpls_v_mdot(be, n, (int)j + 1, V, v[j], d);
            for (hpls_int i = 0; i < j; i++)
                c[i] = d[i];
            alpha = d[j];
        }
        if (j > 0) { /* the second pass of u_j: column j-1 is complete */
            nu = pending_norm(mc, G, j, alpha, &done);
            double *col = h + (j - 1) * (m + 1), *hc = G->hc;
            for (hpls_int i = 0; i < j; i++) { /* hc = H c_{j-1}, H's first j-1 columns */
                double sum = 0.0;
                for (hpls_int k = 0; k < j - 1; k++)
                    sum += h[k * (m + 1) + i] * G->cprev[k];
                hc[i] = sum;
            }
            for (hpls_int i = 0; i < j; i++)
                col[i] = (f[i] - hc[i]) / nu_prev + (s_cur / nu_prev) * c[i];
            col[j] = s_cur * nu / nu_prev;
            double rd = rotate(G, j - 1);
            (*it)++;
            *ncols = j;
            if (rd == 0.0 || !isfinite(rd)) { /* rd = 0: R is singular, and so is A M^-1 */
                mc->info.iterations = *it;
                hpls_breakdown(mc, rd,
                               "the rotated diagonal of H (0: A M^-1 is singular "
                               "on the Krylov space)",
                               *it);
                return mc->info.reason;
            }
            why = hpls_conv_check(mc, *it, fabs(G->g[j]) * G->scale);
            if (why != HPLS_NOT_RUN || col[j] == 0.0 || last)
                return why; /* converged, stopped, lucky (h_{j,j-1} = 0) or the cycle's end */
        }
        /* f = V_{j+1}^T z: b, and (v_j, z) from (u_j, z) */
        double cb = 0.0, ff = 0.0;
        for (hpls_int i = 0; i < j; i++) {
            f[i] = G->b[i];
            cb += c[i] * G->b[i];
        }
        f[j] = (gamma - cb) / nu;
        for (hpls_int i = 0; i <= j; i++)
            ff += f[i] * f[i];
        /* s_{j+1}: a scale for u_{j+1} near its norm (zeta - ||f||^2), only to keep
         * the pending vectors from growing step by step */
        double s_next = zeta - ff > 0.0 ? sqrt(zeta - ff) : sqrt(zeta);
        if (!(s_next > 0.0) || !isfinite(s_next))
            s_next = 1.0;
        /* v_j = (u_j - V c) / nu (unless done); u_{j+1} = (z - V f) / s_{j+1} */
        for (hpls_int i = 0; i < j; i++) {
            G->a[i] = done ? 0.0 : -c[i];
            G->b[i] = -f[i];
            G->hc[i] = -c[i] / nu;
        }
        hpls_v_maxpy2(be, n, (int)j, V, G->a, done ? 1.0 : 1.0 / nu, v[j], G->b, -f[j],
                      1.0 / s_next, v[j + 1]);
        if (G->z && !done) /* z_j = (z_j - Z c) / nu, as v_j */
            hpls_v_maxpy(be, n, (int)j, G->hc, (const hpls_dvec *const *)G->z, 1.0 / nu, G->z[j]);
        for (hpls_int i = 0; i < j; i++)
            G->cprev[i] = c[i];
        nu_prev = nu;
        s_cur = s_next;
    }
    return why;
}

static hpls_status solve(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    gmres_data *G = mc->mdata;
    hpls_backend *be = mc->be;
    hpls_int n = mc->n, m = G->m;
    hpls_dvec *r = mc->work[0], *t = mc->work[1], *u = mc->work[2];
    double *rt = G->rt, *g = G->g, *y = G->y;
    int precnorm = mc->opt.left && mc->opt.precnorm;
    if (precnorm) {
        const hpls_dvec *pb = hpls_m_pc_apply(mc, b, t); /* reference norm ||M^-1 b|| */
        hpls_conv_use_precond_norm(mc, hpls_v_nrm2(be, n, pb));
    }
    double beta = residual(mc, G, b, x, r, t);
    hpls_reason why = hpls_conv_start(mc, precnorm ? beta : G->rnorm);
    hpls_int it = 0;
    while (why == HPLS_NOT_RUN) {
        if (!(beta > 0.0) || !isfinite(beta)) { /* left: M^-1 r vanished, r did not */
            hpls_breakdown(mc, beta, "||M^-1 (b - A x)||", it);
            break;
        }
        hpls_v_axpby(be, n, 1.0 / beta, r, 0.0, G->v[0]); /* v_0 = r / beta */
        g[0] = beta;
        hpls_int j;
        why = cycle(mc, G, t, &it, &j);
        if (why == HPLS_DIVERGED_NAN || why == HPLS_DIVERGED_BREAKDOWN)
            break;
        int lucky = j > 0 && G->h[(j - 1) * (m + 1) + j] == 0.0;
        for (hpls_int i = j - 1; i >= 0; i--) { /* R y = g, R upper triangular */
            double sum = g[i];
            for (hpls_int k = i + 1; k < j; k++)
                sum -= rt[k * (m + 1) + i] * y[k];
            y[i] = sum / rt[i * (m + 1) + i];
        }
        if (G->z) {
            hpls_v_maxpy(be, n, (int)j, y, (const hpls_dvec *const *)G->z, 1.0, x); /* x += Z y */
        } else {
            hpls_v_maxpy(be, n, (int)j, y, (const hpls_dvec *const *)G->v, 0.0, u); /* u = V y */
            const hpls_dvec *z = mc->opt.left ? u : hpls_m_pc_apply(mc, u, t);
            hpls_v_axpy(be, n, 1.0, z, x); /* x += M^-1 V y */
        }
        if (hpls_reason_converged(why) && !precnorm) {
            why = hpls_conv_confirm(mc, b, x, r, it); /* r: the true residual if not */
            if (why == HPLS_NOT_RUN && mc->opt.left)  /* M^-1 r, and the ratio again */
                residual(mc, G, b, x, r, t);
        } else if (why == HPLS_NOT_RUN || lucky)
            residual(mc, G, b, x, r, t);
        if (why == HPLS_NOT_RUN) {
            beta = hpls_v_nrm2(be, n, r);
            if (!(beta > 0.0) || !isfinite(beta))
                why = hpls_conv_check(mc, it, mc->opt.left && !precnorm ? G->rnorm : beta);
        }
    }
    return HPLS_OK;
}

hpls_status hpls_solve_gmres(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    return solve(mc, b, x);
}

hpls_status hpls_solve_fgmres(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    return solve(mc, b, x);
}

hpls_status hpls_gmres_loss(const hpls_mctx *mc, hpls_int k, double *loss)
{
    const gmres_data *G = mc->mdata;
    if (!G || mc->mdata_destroy != hpls_destroy_gmres || k < 1 || k > G->m)
        return hpls_fail(HPLS_ERR_ARG, "hpls_gmres_basis_loss: not a gmres solver, or k %lld "
                         "outside 1..restart", (long long)k);
    double *d = hpls_malloc(k, sizeof *d);
    if (!d)
        return HPLS_ERR_NOMEM;
    *loss = 0.0;
    for (hpls_int i = 0; i < k; i++) {
        hpls_v_mdot(mc->be, mc->n, (int)k, (const hpls_dvec *const *)G->v, G->v[i], d);
        for (hpls_int j = 0; j < k; j++)
            *loss = fmax(*loss, fabs(d[j] - (i == j ? 1.0 : 0.0)));
    }
    hpls_free(d);
    return mc->be->err;
}
