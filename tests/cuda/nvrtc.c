/* SPDX-License-Identifier: BSD-3-Clause */
/* nvrtc.c: the CUDA compile gate for the kernel text libhpls embeds
 * (cmake/embed.cmake: dialect.h and the .cl files of kernels/device): NVRTC,
 * which needs no GPU, compiles it as CUDA for each architecture the module is
 * built for, with dialect.h's flags and the host's sizes (sizes.h), and the
 * PTX must hold an entry for every KERNEL the text declares.  Then a text with
 * one broken kernel appended must fail to compile (the gate can fail).
 * Exit 0: all compiled; 1: a failure.
 *   nvrtc   (run by CTest as cuda_nvrtc) */
#include "kernels/device/sizes.h"

#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char hpls_device_src[]; /* device_src.c, generated */

static const char *const archs[] = {"--gpu-architecture=compute_80",
                                    "--gpu-architecture=compute_90",
                                    "--gpu-architecture=compute_100"};

/* Compiles src for arch; returns the PTX (to free) or NULL, printing the log. */
static char *compile(const char *src, const char *arch, int quiet)
{
    nvrtcProgram p;
    if (nvrtcCreateProgram(&p, src, "hpls_device.cu", 0, NULL, NULL) != NVRTC_SUCCESS) {
        fprintf(stderr, "nvrtcCreateProgram failed\n");
        return NULL;
    }
    char wg[32], tb[32]; /* the host's sizes, as opencl.c passes them */
    snprintf(wg, sizeof wg, "-DWG=%d", HPLS_DEV_WG);
    snprintf(tb, sizeof tb, "-DTB=%d", HPLS_DEVICE_TRI_MAX);
    const char *opts[] = {arch, "--fmad=false", "--std=c++17", wg, tb};
    nvrtcResult r = nvrtcCompileProgram(p, 5, opts);
    char *ptx = NULL;
    size_t size = 0;
    if (r != NVRTC_SUCCESS) {
        if (!quiet && nvrtcGetProgramLogSize(p, &size) == NVRTC_SUCCESS) {
            char *log = malloc(size + 1);
            if (log && nvrtcGetProgramLog(p, log) == NVRTC_SUCCESS)
                fprintf(stderr, "%s: %s\n%s\n", arch, nvrtcGetErrorString(r), log);
            free(log);
        }
    } else if (nvrtcGetPTXSize(p, &size) == NVRTC_SUCCESS && (ptx = malloc(size + 1)) &&
               nvrtcGetPTX(p, ptx) != NVRTC_SUCCESS) {
        free(ptx);
        ptx = NULL;
    }
    nvrtcDestroyProgram(&p);
    return ptx;
}

/* Every "KERNEL void name(" of the text has ".entry name(" in ptx; returns
 * the number of kernels, or -1 after naming a missing one. */
static int check_entries(const char *src, const char *ptx, const char *arch)
{
    int count = 0;
    for (const char *k = strstr(src, "\nKERNEL void "); k; k = strstr(k + 1, "\nKERNEL void ")) {
        const char *name = k + strlen("\nKERNEL void ");
        size_t len = strcspn(name, "(");
        char entry[128];
        snprintf(entry, sizeof entry, ".entry %.*s(", (int)len, name);
        if (!strstr(ptx, entry)) {
            fprintf(stderr, "%s: no %s in the PTX\n", arch, entry);
            return -1;
        }
        count++;
    }
    return count;
}

int main(void)
{
    int fail = 0, major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    for (size_t a = 0; a < sizeof archs / sizeof *archs; a++) {
        char *ptx = compile(hpls_device_src, archs[a], 0);
        int n = ptx ? check_entries(hpls_device_src, ptx, archs[a]) : -1;
        printf("NVRTC %d.%d %s --fmad=false: %s, %d kernels\n", major, minor,
               strchr(archs[a], '=') + 1, n > 0 ? "compiled" : "FAILED", n);
        fail |= n <= 0;
        free(ptx);
    }
    /* the gate can fail: an undeclared name in one more kernel */
    size_t len = strlen(hpls_device_src);
    const char *broken = "\nKERNEL void broken(idx_t n) { undeclared_name = n; }\n";
    char *bad = malloc(len + strlen(broken) + 1);
    if (!bad)
        return 1;
    memcpy(bad, hpls_device_src, len);
    strcpy(bad + len, broken);
    char *ptx = compile(bad, archs[0], 1);
    printf("a broken kernel appended: %s\n", ptx ? "COMPILED (the gate cannot fail)" : "refused");
    fail |= ptx != NULL;
    free(ptx);
    free(bad);
    return fail;
}
