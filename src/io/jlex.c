/* JSON numbers (see jlex.h). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/jlex.h"

static int is_number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
}

/* 10^k for k in 0..22, exactly */
static double pow10_of(int k)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    return pow10[k];
}

#if LDBL_MANT_DIG == 64 && (defined __x86_64__ || defined __i386__)
/* m 10^scale (m < 2^64, |scale| <= 27) correctly rounded to a double into *v, through one
 * correctly rounded x87 product or quotient (m and 10^|scale| = 2^|scale| 5^|scale| are exact in
 * its 64 bits): rounding that again to 53 bits gives the nearest double unless the 64-bit result
 * is itself halfway between two doubles (a double's midpoint nearer the exact value than it
 * would be a closer 64-bit number), which is refused. 0 when refused. */
static int extended_number(uint64_t m, int scale, double *v)
{
    static const long double pow10l[] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
                                         1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
                                         1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
    if (scale < -27 || scale > 27) return 0;
    long double x = (long double)m;
    x = scale < 0 ? x / pow10l[-scale] : x * pow10l[scale];
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);   /* the x87 format's first 8 bytes: its 64-bit significand */
    if ((bits & 0x7ff) == 0x400) return 0;
    *v = (double)x;
    return 1;
}
#else
static int extended_number(uint64_t m, int scale, double *v)
{
    (void)m, (void)scale, (void)v;
    return 0;
}
#endif

/* A plain JSON number: -?d+[.d*][(e|E)[+-]d+], not followed by another number character. Its
 * significant digits (from the first nonzero one, trailing zeros included) and the first 19 of
 * them as an integer m; the decimal exponent of its last digit before the exponent (scale) and
 * the exponent (e, |e| <= 100000). */
typedef struct plain {
    uint64_t m;
    int neg, digits, scale, e;
} plain;

/* one more significand digit c */
static void add_digit(plain *p, char c)
{
    if (!p->digits && c == '0') return;
    if (++p->digits <= 19) p->m = 10 * p->m + (uint64_t)(c - '0');
}

/* 1 when the 8 bytes at q (before end) are all digits, with their value in *v */
static inline int eight_digits(const char *q, const char *end, uint64_t *v)
{
    if (end - q < 8) return 0;
    uint64_t w;
#if defined __BYTE_ORDER__ && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&w, q, 8);   /* q[0] in the lowest byte */
#else
    w = 0;
    for (int k = 0; k < 8; k++) w |= (uint64_t)(unsigned char)q[k] << 8 * k;
#endif
    /* every byte 0x30..0x39: its high nibble 3, and still 3 after adding 6 */
    if (((w & 0xf0f0f0f0f0f0f0f0u) | (((w + 0x0606060606060606u) & 0xf0f0f0f0f0f0f0f0u) >> 4)) != 0x3333333333333333u)
        return 0;
    w -= 0x3030303030303030u;
    w = w * 10 + (w >> 8);   /* byte pairs: 10 d0 + d1 in bytes 0, 2, 4, 6 */
    w = ((w & 0x000000ff000000ffu) * (100 + (1000000ull << 32)) +
         ((w >> 16) & 0x000000ff000000ffu) * (1 + (10000ull << 32))) >> 32;
    *v = w & 0xffffffffu;
    return 1;
}

/* the digits from q on (a fractional part's when frac) into *p; the byte after them */
static inline const char *digit_run(const char *q, const char *end, plain *p, int frac)
{
    if (!p->digits)   /* leading zeros: not significant */
        for (; q < end && *q == '0'; q++) p->scale -= frac;
    uint64_t v;
    while (p->digits <= 11 && eight_digits(q, end, &v))
        p->m = 100000000 * p->m + v, p->digits += 8, p->scale -= 8 * frac, q += 8;
    for (; q < end && *q >= '0' && *q <= '9'; q++) add_digit(p, *q), p->scale -= frac;
    return q;
}

/* the plain number at s (text ending at end) into *p and the byte after it into *stop; 0 when
 * the number there is not plain (or not a number) */
static int plain_number(const char *s, const char *end, plain *p, const char **stop)
{
    const char *q = s;
    memset(p, 0, sizeof *p);
    p->neg = q < end && *q == '-';
    q += p->neg;
    if (q >= end || *q < '0' || *q > '9') return 0;
    q = digit_run(q, end, p, 0);
    if (q < end && *q == '.') q = digit_run(q + 1, end, p, 1);
    if (q < end && (*q == 'e' || *q == 'E')) {
        q++;
        int eneg = q < end && (*q == '-' || *q == '+') ? *q++ == '-' : 0;
        if (q >= end || *q < '0' || *q > '9') return 0;
        for (; q < end && *q >= '0' && *q <= '9'; q++)
            if (p->e < 100000) p->e = 10 * p->e + (*q - '0');
        if (eneg) p->e = -p->e;
    }
    if (q < end && is_number_char(*q)) return 0;
    *stop = q;
    return 1;
}

/* The value of plain number p, correctly rounded, into *v when its digits and exponent allow
 * an exact shortcut: at most 15 digits and an exponent within +-22 (then the digits and 10^|e|
 * are exact doubles and one correctly rounded product or quotient is the correctly rounded
 * value, Clinger 1990), or at most 19 digits through extended_number. 0 when it is not such a
 * number (strtod reads it). */
static int exact_number(const plain *p, double *v)
{
    int scale = p->scale + p->e;
    double d;
    if (p->digits > 19) return 0;
    if (p->digits <= 15 && scale >= -22 && scale <= 22) {
        d = (double)p->m;
        d = scale < 0 ? d / pow10_of(-scale) : d * pow10_of(scale);
    } else if (!extended_number(p->m, scale, &d))
        return 0;
    *v = p->neg ? -d : d;
    return 1;
}

/* count v, with `digits` significant digits the last of which is at 10^last, in dec */
static void count_decimals(cc_jdecimals *dec, int digits, int last, double v)
{
    if (!(v != 0) || !isfinite(v)) return;
    dec->count++;
    if (digits > dec->max_digits) dec->max_digits = digits;
    /* a float's rounding to these digits lies within half a unit of the last digit of it (a tie
     * exactly so: the margin is for the rounding of v itself and of this test) */
    double half = 0.5 * (last >= -22 && last <= 22 ? (last < 0 ? 1 / pow10_of(-last) : pow10_of(last)) : pow(10, last));
    dec->nonfloat += !(fabs((double)(float)v - v) <= half * (1 + 1e-3) + 4e-16 * fabs(v));
}

/* the exponent e clamped to what a finite nonzero double can have with any digits (|e| < 400) */
static int clamp_exponent(int e) { return e > 1000 ? 1000 : e < -1000 ? -1000 : e; }

/* 1 if s..end starts with the letters of w (lower case) in any case */
static int word_ci(const char *s, const char *end, const char *w)
{
    for (; *w; s++, w++)
        if (s >= end || (*s | 0x20) != *w) return 0;
    return 1;
}

/* the length of a non-finite number's word at s, as languages print them (NaN, nan, -nan,
 * Infinity, -Infinity, inf, +Inf, INF, ...: an optional sign, then nan, infinity or inf in any
 * case), with its value in *v; 0 if there is none */
static size_t special_number(const char *s, const char *end, double *v)
{
    size_t sign = s < end && (*s == '-' || *s == '+');
    double inf = sign && *s == '-' ? -INFINITY : INFINITY;
    if (word_ci(s + sign, end, "nan")) return *v = NAN, sign + 3;
    if (word_ci(s + sign, end, "infinity")) return *v = inf, sign + 8;
    if (word_ci(s + sign, end, "inf")) return *v = inf, sign + 3;
    return 0;
}

int cc_jnum_read(const char *s, const char *end, cc_jdecimals *dec, double *v, const char **stop, char *err)
{
    int digit = s < end && ((*s >= '0' && *s <= '9') || (*s == '-' && s + 1 < end && s[1] >= '0' && s[1] <= '9'));
    size_t special = digit ? 0 : special_number(s, end, v);
    if (special) return *stop = s + special, 0;
    if (!digit) return snprintf(err, CC_ERRLEN, "unexpected '%c'", s < end ? *s : ' '), -1;
    plain p;
    const char *q;
    int is_plain = plain_number(s, end, &p, &q);
    if (!is_plain)   /* the whole run of number characters, to quote (strtod reads none of them whole) */
        for (q = s + 1; q < end && is_number_char(*q); q++) {}
    char buf[CC_JNUM_MAX + 1];
    size_t n = (size_t)(q - s);
    if (n > CC_JNUM_MAX) return snprintf(err, CC_ERRLEN, "a number of more than %d characters", CC_JNUM_MAX), -1;
    if (!is_plain || !exact_number(&p, v)) {
        memcpy(buf, s, n);
        buf[n] = '\0';
        if (!is_plain) return snprintf(err, CC_ERRLEN, "'%s' is not a number", buf), -1;
        *v = strtod(buf, NULL);
    }
    count_decimals(dec, p.digits, p.scale + clamp_exponent(p.e), *v);
    *stop = q;
    return 0;
}

double cc_jdecimals_precision(const cc_jdecimals *d, int floats_declared, int doubles_declared, int *floats)
{
    double printed = d->max_digits > 0 ? 0.5 * pow(10, 1 - d->max_digits) : 0;
    /* evidence enough: many numbers, or a few printed with more digits than a float's value needs
     * by chance (a double is a float's 12-digit rounding about once in 2^20) */
    int enough = d->count > 20 || (d->count >= 3 && d->max_digits >= 12);
    if (d->max_digits < 8) enough = 0;   /* a decimal of 7 digits or fewer is near some float anyway */
    *floats = floats_declared || (!doubles_declared && enough && d->nonfloat == 0);
    double p = *floats ? fmax(printed, 0x1p-24) : printed;
    return p > 1e-15 ? p : 0;
}

/* the 4 hex digits at s (before end) as a code point; -1 if they are not hex */
static long hex4(const char *s, const char *end)
{
    if (end - s < 4) return -1;
    long u = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        u = 16 * u + d;
    }
    return u;
}

/* code point u as UTF-8 at o; bytes written */
static int utf8(unsigned long u, char *o)
{
    if (u < 0x80) return o[0] = (char)u, 1;
    if (u < 0x800) return o[0] = (char)(0xc0 | u >> 6), o[1] = (char)(0x80 | (u & 0x3f)), 2;
    if (u < 0x10000)
        return o[0] = (char)(0xe0 | u >> 12), o[1] = (char)(0x80 | ((u >> 6) & 0x3f)), o[2] = (char)(0x80 | (u & 0x3f)), 3;
    o[0] = (char)(0xf0 | u >> 18), o[1] = (char)(0x80 | ((u >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((u >> 6) & 0x3f)), o[3] = (char)(0x80 | (u & 0x3f));
    return 4;
}

int cc_jstr_decode(const char *s, const char *q, char *o, const char **stop, char *err)
{
    static const char map[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
    while (s < q) {
        unsigned char c = (unsigned char)*s++;
        if (c < 0x20) return *stop = s, snprintf(err, CC_ERRLEN, "a control character inside a string"), -1;
        if (c != '\\') {
            *o++ = (char)c;
            continue;
        }
        c = (unsigned char)*s++;   /* (a backslash before q is followed by a byte before q) */
        const char *m = c ? strchr(map, c) : NULL;
        if (m && (m - map) % 2 == 0) {
            *o++ = m[1];
        } else if (c == 'u') {
            long u = hex4(s, q);
            if (u < 0) return *stop = s, snprintf(err, CC_ERRLEN, "a \\u escape without 4 hex digits"), -1;
            s += 4;
            if (u >= 0xd800 && u < 0xdc00 && q - s >= 2 && s[0] == '\\' && s[1] == 'u') {   /* a surrogate pair */
                long lo = hex4(s += 2, q);
                if (lo >= 0) s += 4;
                if (lo < 0xdc00 || lo > 0xdfff)
                    return *stop = s, snprintf(err, CC_ERRLEN, "a \\u surrogate pair is broken"), -1;
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            }
            o += utf8((unsigned long)u, o);   /* 6 or 12 escaped bytes hold the <= 4 written */
        } else {
            return *stop = s, snprintf(err, CC_ERRLEN, "an unknown escape \\%c in a string", c ? c : '0'), -1;
        }
    }
    *o = '\0';
    *stop = q + 1;
    return 0;
}

void cc_jline(char *err, const char *msg)
{
    size_t at = 0, cap = CC_ERRLEN;
    for (const unsigned char *c = (const unsigned char *)msg; *c && at + 5 < cap; c++) {
        if (*c < 0x20 || *c == 0x7f) at += (size_t)snprintf(err + at, cap - at, "\\x%02X", *c);
        else err[at++] = (char)*c;
    }
    err[at < cap ? at : cap - 1] = '\0';
}
