/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_gen.c: `hpls gen SPEC -o A.mtx [-b b.mtx]`: write a generated matrix.
 * Generator options can follow as --key value: `hpls gen gas --n 1e6 --k 2`.
 * A and b appear together or not at all (written under temporary names, then
 * renamed), also when SIGINT or SIGTERM comes. */
#include "cli.h"

#include <string.h>

int cmd_gen(int argc, char **argv)
{
    const char *out = NULL, *bout = NULL, *v;
    char spec[1024] = "";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: hpls gen NAME[:key=value,...] [--key value ...] -o A.mtx [-b b.mtx]\n"
                   "\nWrites a generated matrix (and with -b its right-hand side, A*1 unless the\n"
                   "generator defines another).  The same SPEC works as `hpls solve --gen SPEC`.\n"
                   "\nGenerators and their options (defaults):\n%s",
                   hpls_gen_help());
            return 0;
        } else if ((v = cli_flag_value(argc, argv, &i, "-o")) ||
                   (v = cli_flag_value(argc, argv, &i, "--output"))) {
            out = v;
        } else if ((v = cli_flag_value(argc, argv, &i, "-b")) ||
                   (v = cli_flag_value(argc, argv, &i, "--rhs"))) {
            bout = v;
        } else if (a[0] == '-' && a[1] == '-' && spec[0]) {
            size_t klen = strcspn(a, "="), len = strlen(spec);
            v = cli_take_value(argc, argv, &i, klen);
            if (snprintf(spec + len, sizeof spec - len, "%s%.*s=%s", strchr(spec, ':') ? "," : ":",
                         (int)klen - 2, a + 2, v) >= (int)(sizeof spec - len))
                return cli_error("generator spec too long at %s", a);
        } else if (a[0] == '-') {
            return cli_error("unexpected flag %s (see hpls gen --help)", a);
        } else if (!spec[0]) {
            snprintf(spec, sizeof spec, "%s", a);
        } else {
            return cli_error("unexpected argument %s (see hpls gen --help)", a);
        }
    }
    if (!spec[0] || !out)
        return cli_error("hpls gen needs a generator and -o FILE (see hpls gen --help)");
    if (bout && cli_same_path(out, bout))
        return cli_error("-o %s and -b %s name the same file", out, bout);
    int rc = cli_output_probe(out);
    if (rc || (bout && (rc = cli_output_probe(bout))))
        return rc;
    cli_catch_signals();
    cli_problem pb;
    if ((rc = cli_load(NULL, spec, 0, &pb)) != 0)
        return rc;
    cli_output outputs[2] = {{0}};
    hpls_status st = HPLS_OK;
    if ((rc = cli_output_begin(&outputs[0], out)) == 0 &&
        (st = hpls_mm_write_csr(outputs[0].file, pb.A)) == HPLS_OK && bout && pb.b &&
        (rc = cli_output_begin(&outputs[1], bout)) == 0)
        st = hpls_mm_write_vec(outputs[1].file, pb.b);
    if (st != HPLS_OK)
        rc = cli_fail(st, "cannot write", hpls_last_error());
    if (rc == 0)
        rc = cli_output_commit(outputs, 2, "while writing");
    cli_output_discard(&outputs[0]);
    cli_output_discard(&outputs[1]);
    cli_problem_free(&pb);
    return rc;
}
