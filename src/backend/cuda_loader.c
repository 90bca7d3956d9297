/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_loader.c: the cuda backend through its optional module,
 * libhpls_cuda.so (kernels/cuda/module.h), loaded with dlopen the first time
 * backend=cuda is asked for and kept until exit (the CUDA runtime in it
 * registers exit handlers: it is never unloaded).  libhpls itself links no
 * CUDA library, so it and the command run where CUDA is absent; there the
 * backend's creation fails with a message:
 *   HPLS_ERR_NOT_COMPILED  no module (hpls built without HPLS_CUDA, or not installed)
 *   HPLS_ERR_UNSUPPORTED   the module cannot load (CUDA libraries missing) or
 *                          run: no driver, no device, no kernel image for it
 * The module is looked for at $HPLS_CUDA_MODULE if set, else beside the file
 * holding this code (libhpls.so or a program linked with libhpls.a), in its
 * ../lib and ../LIBDIR (a build tree's bin/ and lib/, an installed prefix),
 * then by the dynamic loader's search (LD_LIBRARY_PATH). */
#define _GNU_SOURCE /* dladdr */
#include "kernels/cuda/module.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>

#define MODULE_FILE "libhpls_cuda.so"

static struct {
    hpls_status st;
    char msg[PATH_MAX + 600];
    char path[PATH_MAX + 64]; /* the module loaded */
    const hpls_devtab *tab;
} M;

static const hpls_cuda_host host = {
    .vfail = hpls_vfail, .malloc = hpls_malloc, .calloc = hpls_calloc, .free = hpls_free};

/* Loads path; 1 when loaded, 0 when there is no such file, -1 (M.msg says
 * why) when the file is there but cannot be used. */
static int try_module(const char *path)
{
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!so) {
        if (strchr(path, '/') && access(path, F_OK) != 0)
            return 0;
        const char *why = dlerror();
        if (!strchr(path, '/') && why && strstr(why, MODULE_FILE ": cannot open"))
            return 0; /* the loader's search found nothing */
        snprintf(M.msg, sizeof M.msg, "cuda backend: %.2000s cannot be loaded (%.1000s)", path,
                 why ? why : "dlopen failed");
        return -1;
    }
    hpls_cuda_entry_fn entry;
    *(void **)&entry = dlsym(so, HPLS_CUDA_ENTRY); /* POSIX's way to a function pointer */
    M.tab = entry ? entry(HPLS_CUDA_ABI, sizeof(hpls_backend), sizeof(hpls_devtab), sizeof(hpls_dev),
                          &host)
                  : NULL;
    if (!M.tab) {
        snprintf(M.msg, sizeof M.msg,
                 "cuda backend: %.2000s was built from another version of hpls (this is %d.%d.%d)",
                 path, HPLS_VERSION_MAJOR, HPLS_VERSION_MINOR, HPLS_VERSION_PATCH);
        dlclose(so);
        return -1;
    }
    snprintf(M.path, sizeof M.path, "%.3900s", path);
    return 1;
}

static hpls_status load(void)
{
    const char *env = getenv("HPLS_CUDA_MODULE");
    if (env && *env) {
        int r = try_module(env);
        if (r == 0)
            snprintf(M.msg, sizeof M.msg, "cuda backend: HPLS_CUDA_MODULE=%.2000s: no such file",
                     env);
        return r == 1 ? HPLS_OK : HPLS_ERR_UNSUPPORTED;
    }
    char dir[PATH_MAX] = ".", path[PATH_MAX + 64];
    Dl_info info;
    if (dladdr(&M, &info) && info.dli_fname && realpath(info.dli_fname, dir) && strrchr(dir, '/'))
        *strrchr(dir, '/') = '\0';
    const char *const rel[] = {"", "/../lib", ("/../" HPLS_LIBDIR)};
    int nrel = strcmp(HPLS_LIBDIR, "lib") == 0 ? 2 : 3;
    for (int i = 0; i < nrel; i++) {
        snprintf(path, sizeof path, "%.3900s%s/" MODULE_FILE, dir, rel[i]);
        int r = try_module(path);
        if (r != 0)
            return r == 1 ? HPLS_OK : HPLS_ERR_UNSUPPORTED;
    }
    int r = try_module(MODULE_FILE);
    if (r == 0) {
        snprintf(M.msg, sizeof M.msg,
                 "cuda backend: no " MODULE_FILE " in %.1500s, %.1500s/../%s or the library path "
                 "(hpls was built without it: cmake -DHPLS_CUDA=ON with the CUDA "
                 "toolkit; or set HPLS_CUDA_MODULE)",
                 dir, dir, nrel == 2 ? "lib" : "{lib," HPLS_LIBDIR "}");
        return HPLS_ERR_NOT_COMPILED;
    }
    return r == 1 ? HPLS_OK : HPLS_ERR_UNSUPPORTED;
}

static void load_once(void)
{
    M.st = load();
}

/* The module (loaded once per process; a failure is kept and told every time). */
static hpls_status module_get(void)
{
    static once_flag once = ONCE_FLAG_INIT;
    call_once(&once, load_once);
    return M.st == HPLS_OK ? HPLS_OK : hpls_fail(M.st, "%s", M.msg);
}

hpls_status hpls_cuda_init(hpls_backend *be)
{
    hpls_status st = module_get();
    return st == HPLS_OK ? hpls_dev_create(be, M.tab) : st;
}

hpls_status hpls_cuda_devices(FILE *out)
{
    if (module_get() != HPLS_OK) {
        fprintf(out, "cuda: not usable: %s\n", M.msg);
        return HPLS_OK;
    }
    fprintf(out, "cuda: module %s\n", M.path);
    M.tab->devices(out);
    return HPLS_OK;
}
