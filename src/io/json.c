#include <math.h>
#include "io/json.h"

void cc_json_number(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.17g", v == 0 ? 0.0 : v);   /* -0 as 0 */
    else fputs("null", f);
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
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        cc_json_number(f, v[i]);
    }
    fputc(']', f);
}
