/* Minimal JSON writing: numbers with 17 significant digits (as "%.17g" prints them, g17.h),
 * non-finite numbers as null. */
#ifndef CC_JSON_H
#define CC_JSON_H

#include <stdio.h>

/* a number, or null when not finite (JSON has no NaN or infinity) */
void cc_json_number(FILE *f, double v);
/* "s" with JSON escapes */
void cc_json_string(FILE *f, const char *s);
/* [v0, v1, ...] of n numbers */
void cc_json_array(FILE *f, const double *v, int n);

#endif
