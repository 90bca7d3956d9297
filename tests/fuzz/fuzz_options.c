/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_options.c: libFuzzer target for the option parser (src/options.c,
 * reached through src/solver/solver.c): hpls_solver_set_option,
 * hpls_solver_set_options, hpls_solver_get_option, hpls_solver_help.
 *
 * Input: a flag byte, then text.  bit 0: the whole text goes to set_options;
 * otherwise each line goes to set_option.
 * Properties: no crash or sanitizer report; a rejected option leaves a message;
 * every key listed by --help has a value, and setting "key=value" from
 * get_option on a fresh solver succeeds and reads back the same string; an
 * unknown key reads as NULL. */
#include "fuzz_common.h"

#include "hpls.h"

enum { MAX_KEYS = 64, KEY_LEN = 32 };
static char keys[MAX_KEYS][KEY_LEN];
static int nkeys;

/* The option keys: the first word of each line of --help's first section. */
static void read_keys(void)
{
    const char *h = hpls_solver_help();
    FUZZ_CHECK(h && strncmp(h, "Options", 7) == 0, "help does not start with the options");
    const char *line = strchr(h, '\n') + 1;
    while (line[0] == ' ' && nkeys < MAX_KEYS) {
        const char *w = line + strspn(line, " ");
        size_t len = strcspn(w, " ");
        FUZZ_CHECK(len > 0 && len < KEY_LEN, "odd help line");
        memcpy(keys[nkeys], w, len);
        keys[nkeys++][len] = '\0';
        line = strchr(line, '\n') + 1;
    }
    FUZZ_CHECK(nkeys > 0 && line[0] == '\n', "help lists no options");
}

static void check_round_trip(const hpls_solver *s)
{
    hpls_solver *t;
    FUZZ_CHECK(hpls_solver_create(&t) == HPLS_OK, "create failed");
    for (int k = 0; k < nkeys; k++) {
        const char *v = hpls_solver_get_option(s, keys[k]);
        FUZZ_CHECK(v && v[0], "option %s has no value", keys[k]);
        char kv[128];
        snprintf(kv, sizeof kv, "%s=%s", keys[k], v);
        FUZZ_CHECK(hpls_solver_set_option(t, kv) == HPLS_OK, "\"%s\" read back is rejected: %s", kv,
                   hpls_solver_message(t));
        FUZZ_CHECK(strcmp(hpls_solver_get_option(t, keys[k]), v) == 0, "%s does not read back", kv);
    }
    hpls_solver_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!nkeys)
        read_keys();
    if (size < 1 || size > 4096)
        return 0;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    hpls_solver *s;
    FUZZ_CHECK(hpls_solver_create(&s) == HPLS_OK, "create failed");
    if (data[0] & 1) {
        if (hpls_solver_set_options(s, text) != HPLS_OK)
            FUZZ_CHECK(hpls_solver_message(s)[0], "set_options failed without a message");
    } else {
        for (char *line = text, *next; line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            if (hpls_solver_set_option(s, line) != HPLS_OK)
                FUZZ_CHECK(hpls_solver_message(s)[0], "set_option failed without a message");
        }
    }
    /* the first word as a key: known keys have a value, others none */
    char word[KEY_LEN];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(text, " =,\n"), text);
    int known = 0;
    for (int k = 0; k < nkeys; k++)
        known |= strcmp(keys[k], word) == 0;
    FUZZ_CHECK(known == (hpls_solver_get_option(s, word) != NULL), "get_option(\"%s\")", word);
    check_round_trip(s);
    hpls_solver_destroy(s);
    free(text);
    return 0;
}
