/* SPDX-License-Identifier: BSD-3-Clause */
/* kernel_list.c: the kernel list (src/kernels/device/kernels.h) against the
 * kernel text libhpls embeds (dialect.h and the .cl files): every `KERNEL
 * void name(...)` of the text is listed once, with one letter per parameter
 * of the right kind (l idx_t, i int, u u64_t, d double, g a GLOBAL pointer),
 * and every listed kernel is in the text.  The host layer passes arguments by
 * those letters: on CUDA a wrong one would be a silent wrong cast on a GPU
 * (nothing runs one here), so this is where it must fail.  Then a text with
 * one unlisted kernel appended must fail the check (it can fail).
 *   kernel_list   (CTest device_kernel_list) */
#include "kernels/device/kernels.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char hpls_device_src[]; /* device_src.c, generated */

#define ENTRY(name, sig) {#name, sig},
static const struct {
    const char *name, *sig;
} list[] = {HPLS_DEVICE_KERNELS(ENTRY)};
enum { NLIST = sizeof list / sizeof *list };

/* The kind letter of one parameter's text ("GLOBAL const double *x"), or '?' */
static char kind_of(const char *p, size_t len)
{
    char buf[256];
    size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    if (strchr(buf, '*'))
        return strstr(buf, "GLOBAL") && !strstr(buf, "LOCAL ") ? 'g' : '?';
    char type[64] = "";
    if (sscanf(buf, " %63s", type) != 1)
        return '?';
    return strcmp(type, "idx_t") == 0    ? 'l'
           : strcmp(type, "int") == 0    ? 'i'
           : strcmp(type, "u64_t") == 0  ? 'u'
           : strcmp(type, "double") == 0 ? 'd'
                                         : '?';
}

/* Checks src against the list; prints each difference, returns their number. */
static int check(const char *src, int quiet)
{
    static const char mark[] = "\nKERNEL void ";
    int bad = 0, seen[NLIST] = {0};
    for (const char *k = strstr(src, mark); k; k = strstr(k + 1, mark)) {
        const char *name = k + strlen(mark);
        size_t len = strcspn(name, "(");
        char sig[64] = "";
        size_t ns = 0;
        const char *p = name + len + 1, *end = strchr(p, ')');
        while (end && p < end && ns < sizeof sig - 1) { /* parameters up to the ')' */
            size_t plen = strcspn(p, ",)");
            while (plen > 0 && isspace((unsigned char)*p)) {
                p++;
                plen--;
            }
            if (plen > 0)
                sig[ns++] = kind_of(p, plen);
            p += plen + 1;
        }
        int i = 0;
        while (i < NLIST && (strlen(list[i].name) != len || strncmp(list[i].name, name, len) != 0))
            i++;
        if (i == NLIST) {
            bad++;
            if (!quiet)
                printf("FAIL: kernel %.*s (%s) is not in kernels.h\n", (int)len, name, sig);
        } else if (seen[i]++) {
            bad++;
            if (!quiet)
                printf("FAIL: kernel %s is defined twice\n", list[i].name);
        } else if (strcmp(list[i].sig, sig) != 0) {
            bad++;
            if (!quiet)
                printf("FAIL: kernel %s: its parameters are \"%s\", kernels.h says \"%s\"\n",
                       list[i].name, sig, list[i].sig);
        }
    }
    for (int i = 0; i < NLIST; i++)
        if (!seen[i]) {
            bad++;
            if (!quiet)
                printf("FAIL: kernels.h lists %s, which the kernel text does not define\n",
                       list[i].name);
        }
    return bad;
}

int main(void)
{
    int bad = check(hpls_device_src, 0);
    printf("%d kernels listed, %s\n", NLIST,
           bad ? "the list and the text differ" : "each in the text with its kinds");
    /* the check can fail: one more kernel, not listed */
    size_t len = strlen(hpls_device_src);
    const char *more = "\nKERNEL void unlisted(idx_t n, GLOBAL double *x) { x[0] = n; }\n";
    char *text = malloc(len + strlen(more) + 1);
    if (!text)
        return 1;
    memcpy(text, hpls_device_src, len);
    strcpy(text + len, more);
    int caught = check(text, 1) == bad + 1;
    free(text);
    printf("an unlisted kernel appended: %s\n", caught ? "reported" : "NOT reported");
    return bad || !caught;
}
