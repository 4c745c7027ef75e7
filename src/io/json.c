#include <math.h>
#include <string.h>
#include "io/g17.h"
#include "io/json.h"

/* the JSON of number v at p (room for CC_G17_LEN bytes): -0 as 0, null when not finite; its
 * length */
static int number_text(char *p, double v)
{
    if (!isfinite(v)) return memcpy(p, "null", 4), 4;
    return cc_g17(p, v == 0 ? 0.0 : v);
}

void cc_json_number(FILE *f, double v)
{
    char t[CC_G17_LEN];
    fwrite(t, 1, (size_t)number_text(t, v), f);
}

void cc_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch == '\n') fputs("\\n", f);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

void cc_json_array(FILE *f, const double *v, int n)
{
    char buf[4096];
    size_t at = 0;
    buf[at++] = '[';
    for (int i = 0; i < n; i++) {
        if (at > sizeof buf - CC_G17_LEN - 3) fwrite(buf, 1, at, f), at = 0;
        if (i) buf[at++] = ',', buf[at++] = ' ';
        at += (size_t)number_text(buf + at, v[i]);
    }
    buf[at++] = ']';
    fwrite(buf, 1, at, f);
}
