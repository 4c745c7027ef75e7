/* The pieces of JSON text both readers share, so that they read every document alike: a
 * number read from its text, correctly rounded; what the decimals of a document's numbers say
 * of the program that printed them; a string's escapes decoded. The document reader is
 * jsonr.h, the streaming one jread.h.
 */
#ifndef CC_JLEX_H
#define CC_JLEX_H

#include "io/error.h"

#include <stddef.h>

/* What the decimals of a document's numbers say of the program that printed them: the most
 * significant digits any number has (the printing precision: 17 for %.17g or a double's repr,
 * 9 for %.9g, 6 for %g), and how many numbers are not the rounding of a float to the digits
 * they have (0 for a program that computes in floats, whether it prints 9 digits, the shortest
 * that reads back as the float, or all of its exact value). Zeros and non-finite numbers are
 * not counted. */
typedef struct cc_jdecimals {
    long count;       /* finite nonzero numbers */
    long nonfloat;    /* of them, those that no float rounds to */
    int max_digits;   /* significant digits, at most, of one number */
} cc_jdecimals;

/* the longest number text read (a longer one is refused) */
#define CC_JNUM_MAX 63

/* The number at s (the text ends at end, or goes on past CC_JNUM_MAX bytes), with the
 * non-finite spellings of other programs (an optional sign, then nan, inf or infinity in
 * any case: NaN, -nan, Infinity, -Infinity, inf, +Inf, INF), into
 * *v, counted in *dec; the byte after it in *stop. 0, or -1 with a reason in err
 * ("unexpected 'x'", "'1e' is not a number", a number of too many characters). */
int cc_jnum_read(const char *s, const char *end, cc_jdecimals *dec, double *v, const char **stop, char *err);

/* the relative rounding of numbers with decimals d: half a unit of the last digit of the most
 * digits printed and, where every one is a float's rounding (with enough of them to tell: more
 * than 20, or 3 printed with 12 digits or more, and some printed with 8 digits or more: every
 * decimal of 7 is near a float; or floats declared), a float's 2^-24 at least;
 * 0 for doubles printed in full. *floats = 1 where
 * they are taken for floats. */
double cc_jdecimals_precision(const cc_jdecimals *d, int floats_declared, int doubles_declared, int *floats);

/* err = msg on one line whatever the input quoted in it holds: control bytes as \xHH */
void cc_jline(char *err, const char *msg);

/* the body s[0..q) of a string (q at its closing quote) unescaped into o (room for q - s + 1
 * bytes: UTF-8 for \u escapes, NUL-terminated); *stop after the closing quote. 0, or -1 with
 * a reason in err and *stop where the reading stopped */
int cc_jstr_decode(const char *s, const char *q, char *o, const char **stop, char *err);

#endif
