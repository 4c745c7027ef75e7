/* libFuzzer target: the --x / --uv parser of the command line (cc_parse_points, src/cli/args.c).
 *
 * The input, as a NUL-terminated string, is parsed as points of 3 and of 2 numbers. Whatever
 * the text, the parser returns a count in 0..max or -1 with a one-line message, and every
 * number it reports is finite.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "conditions/condition.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1), err[CC_ERRLEN];
    double out[3 * 8];
    if (!s) return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    for (int dim = 2; dim <= 3; dim++) {
        err[0] = '\0';
        int n = cc_parse_points(s, dim, out, 8, err);
        if (n < -1 || n > 8) abort();
        if (n < 0 && (!err[0] || strchr(err, '\n'))) abort();
        for (int i = 0; i < n * dim; i++)
            if (!isfinite(out[i])) abort();
    }
    free(s);
    return 0;
}
