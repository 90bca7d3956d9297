/* SPDX-License-Identifier: BSD-3-Clause */
/* prefetch.h: what the software-prefetch variants HPLS_PF_* (core/internal.h)
 * of the host CSR kernels prefetch: the streams of the matrix ("rows"), the
 * gathers of x ("x"), and with which locality hint.  The SpMV (spmv.c) expands
 * each variant into its own loop; the sweeps (sor_sweep.c, pjg_sweep.c,
 * sptrsv.c, qtree_spmv.c) read the variant per row or per sweep. */
#ifndef HPLS_PREFETCH_H
#define HPLS_PREFETCH_H

#include "core/internal.h"

/* The variant HPLS_PF_DEFAULT stands for in a kernel whose data (the matrix's
 * streams and the vectors it reads and writes) take `bytes`: none when they
 * fit in half the last-level cache, where the hardware keeps up and a
 * prefetch is an instruction more (poisson2d 110^2 and gas 1e5 k=2: none
 * 1.2-1.3x faster than the others, bench/results/prefetch.md); else
 * HPLS_PF_DEFAULT, which the kernels read as rows+x at locality 2 (the SpMV
 * drops x on a stencil).  Asked outside parallel regions: the cache size is
 * read once, by call_once. */
static inline int hpls_pf_sized(int pf, double bytes)
{
    return pf == HPLS_PF_DEFAULT && bytes <= 0.5 * (double)hpls_k_llc_bytes() ? HPLS_PF_NONE : pf;
}

static inline int hpls_pf_rows(int pf)
{
    return pf != HPLS_PF_NONE;
}

static inline int hpls_pf_x(int pf)
{
    return pf == HPLS_PF_DEFAULT || pf == HPLS_PF_ROWSX_L3 || pf == HPLS_PF_ROWSX_L2 ||
           pf == HPLS_PF_ROWSX_NTA;
}

/* The locality hint: 3 (prefetcht0 on x86-64), 2 (prefetcht1) or 0 (prefetchnta). */
static inline int hpls_pf_loc(int pf)
{
    return pf == HPLS_PF_ROWS_L3 || pf == HPLS_PF_ROWSX_L3 ? 3 : pf == HPLS_PF_ROWSX_NTA ? 0 : 2;
}

/* A read prefetch of p with hint loc (the builtin wants a constant: after
 * inlining with a constant loc no branch is left).  A switch, not an if
 * chain: GCC 12 -O3 dropped the locality 2 and 0 prefetches of the if chain
 * once inlined with a constant (only prefetcht0 was left in the binary). */
static inline void hpls_pf_hint(const void *p, int loc)
{
    switch (loc) {
    case 3:
        __builtin_prefetch(p, 0, 3);
        break;
    case 2:
        __builtin_prefetch(p, 0, 2);
        break;
    default:
        __builtin_prefetch(p, 0, 0);
        break;
    }
}

#endif /* HPLS_PREFETCH_H */
