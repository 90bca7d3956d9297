/* cmd_gen.c: `hpls gen SPEC -o A.mtx [-b b.mtx]`: write a generated matrix.
 * Generator options can follow as --key value: `hpls gen gas --n 1e6 --k 2`. */
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
            const char *key = a + 2, *eq = strchr(key, '=');
            if (!eq && i + 1 >= argc)
                return cli_error("%s needs a value", a);
            size_t len = strlen(spec);
            snprintf(spec + len, sizeof spec - len, "%s%s%s%s", strchr(spec, ':') ? "," : ":",
                     key, eq ? "" : "=", eq ? "" : argv[++i]);
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
    if (bout && strcmp(out, bout) == 0)
        return cli_error("-o and -b name the same file %s", out);
    cli_problem pb;
    int rc = cli_load(NULL, spec, 0, &pb);
    if (rc)
        return rc;
    hpls_status st = hpls_mm_write_csr(out, pb.A);
    if (st == HPLS_OK && bout && pb.b)
        st = hpls_mm_write_vec(bout, pb.b);
    if (st != HPLS_OK)
        rc = cli_fail(st, "cannot write", hpls_last_error());
    cli_problem_free(&pb);
    return rc;
}
