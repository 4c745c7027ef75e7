/* Reading JSON (see jsonr.h): a recursive-descent parser into an arena. Arrays and objects
 * collect their elements on a scratch stack and copy them into the arena when they close,
 * so each is one contiguous block. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/jsonr.h"

#define MAX_DEPTH 64
#define CHUNK (1u << 16)

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    unsigned char mem[];
} chunk;

struct cc_jdoc {
    chunk *chunks;
    cc_jv root;
    cc_jdecimals dec;
};

/* the parser: input, the arena's document, the scratch stack, the first error */
typedef struct parser {
    const char *s, *end;
    cc_jdoc *doc;
    cc_jv *stack;
    const char **kstack;
    size_t top, cap;
    char *err;           /* CC_ERRLEN bytes */
    int failed;
} parser;

/* n bytes from the arena (aligned for doubles and pointers), or NULL */
static void *arena(cc_jdoc *d, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    chunk *c = d->chunks;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > CHUNK ? n : CHUNK;
        c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->next = d->chunks, c->used = 0, c->cap = cap;
        d->chunks = c;
    }
    void *p = c->mem + c->used;
    c->used += n;
    return p;
}

static int fail(parser *p, const char *fmt, ...)
{
    if (p->failed) return -1;
    p->failed = 1;
    char msg[CC_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* one line whatever the input quoted in it holds: control bytes shown as \xHH */
    size_t at = 0, cap = CC_ERRLEN;
    for (const unsigned char *c = (const unsigned char *)msg; *c && at + 5 < cap; c++) {
        if (*c < 0x20 || *c == 0x7f) at += (size_t)snprintf(p->err + at, cap - at, "\\x%02X", *c);
        else p->err[at++] = (char)*c;
    }
    if (cap) p->err[at < cap ? at : cap - 1] = '\0';
    return -1;
}

static void skip_space(parser *p)
{
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')) p->s++;
}

/* 1 if the input continues with word w (and consumes it) */
static int word(parser *p, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(p->end - p->s) < n || memcmp(p->s, w, n)) return 0;
    p->s += n;
    return 1;
}

/* push v (and key k) on the scratch stack; 0 or -1 */
static int push(parser *p, const cc_jv *v, const char *k)
{
    if (p->top == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 256;
        cc_jv *s = realloc(p->stack, cap * sizeof *s);
        if (!s) return fail(p, "out of memory");
        p->stack = s;
        const char **ks = realloc(p->kstack, cap * sizeof *ks);
        if (!ks) return fail(p, "out of memory");
        p->kstack = ks;
        p->cap = cap;
    }
    p->stack[p->top] = *v;
    p->kstack[p->top] = k;
    p->top++;
    return 0;
}

static int value(parser *p, cc_jv *v, int depth);

/* the 4 hex digits at p->s as a code point; -1 if they are not hex */
static long hex4(parser *p)
{
    if (p->end - p->s < 4) return -1;
    long u = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        u = 16 * u + d;
    }
    p->s += 4;
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

/* a string (p->s at its opening quote) into the arena: *out */
static int string(parser *p, const char **out)
{
    const char *q = ++p->s;
    while (q < p->end && *q != '"') q += *q == '\\' ? 2 : 1;
    if (q >= p->end) return fail(p, "a string is not closed");
    char *o = arena(p->doc, (size_t)(q - p->s) + 1), *w = o;
    if (!o) return fail(p, "out of memory");
    while (*p->s != '"') {
        unsigned char c = (unsigned char)*p->s++;
        if (c < 0x20) return fail(p, "a control character inside a string");
        if (c != '\\') {
            *w++ = (char)c;
            continue;
        }
        c = (unsigned char)*p->s++;
        const char *map = strchr("\"\"\\\\//b\bf\fn\nr\rt\t", c);
        if (c && map && (map - "\"\"\\\\//b\bf\fn\nr\rt\t") % 2 == 0) {
            *w++ = map[1];
        } else if (c == 'u') {
            long u = hex4(p);
            if (u < 0) return fail(p, "a \\u escape without 4 hex digits");
            if (u >= 0xd800 && u < 0xdc00 && word(p, "\\u")) {   /* a surrogate pair */
                long lo = hex4(p);
                if (lo < 0xdc00 || lo > 0xdfff) return fail(p, "a \\u surrogate pair is broken");
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            }
            w += utf8((unsigned long)u, w);   /* 6 or 12 escaped bytes hold the <= 4 written */
        } else {
            return fail(p, "an unknown escape \\%c in a string", c ? c : '0');
        }
    }
    p->s++;
    *w = '\0';
    *out = o;
    return 0;
}

static int is_number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
}

/* The value of the JSON number s[0..n) when it has at most 15 significant digits and a decimal
 * exponent within +-22, into *v: then the digits and 10^|e| are exact doubles and one
 * correctly rounded product or quotient is the correctly rounded value (Clinger 1990), the
 * same as strtod's. 0 when it is not such a number (strtod reads it). */
/* 10^k for k in 0..22, exactly */
static double pow10_of(int k)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    return pow10[k];
}

static int exact_number(const char *s, size_t n, double *v)
{
    size_t k = 0;
    int neg = k < n && s[k] == '-', digits = 0, scale = 0;
    k += (size_t)neg;
    uint64_t m = 0;
    for (int frac = 0; k < n; k++) {
        if (s[k] == '.' && !frac) {
            frac = 1;
            continue;
        }
        if (s[k] < '0' || s[k] > '9') break;
        if (m || s[k] != '0') {
            if (++digits > 15) return 0;
            m = 10 * m + (uint64_t)(s[k] - '0');
        }
        scale -= frac;
    }
    if (k < n) {   /* an exponent */
        if (s[k] != 'e' && s[k] != 'E') return 0;
        k++;
        int eneg = k < n && (s[k] == '-' || s[k] == '+') ? s[k++] == '-' : 0, e = 0;
        if (k == n) return 0;
        for (; k < n; k++) {
            if (s[k] < '0' || s[k] > '9' || e > 1000) return 0;
            e = 10 * e + (s[k] - '0');
        }
        scale += eneg ? -e : e;
    }
    if (scale < -22 || scale > 22) return 0;
    double d = (double)m;
    d = scale < 0 ? d / pow10_of(-scale) : d * pow10_of(scale);
    *v = neg ? -d : d;
    return 1;
}

/* the significant digits of the JSON number s[0..n) (from its first nonzero digit to its last
 * one, trailing zeros included) and the decimal exponent of its last digit, into *digits and
 * *last */
static void decimal_shape(const char *s, size_t n, int *digits, int *last)
{
    size_t k = s[0] == '-';
    int d = 0, frac = 0, e = 0, scale = 0;
    for (; k < n && s[k] != 'e' && s[k] != 'E'; k++) {
        if (s[k] == '.') {
            frac = 1;
            continue;
        }
        if (d || s[k] != '0') d++;
        scale -= frac;
    }
    if (k < n) {   /* the exponent, read within s[0..n) (the text goes on after the number) */
        int neg = 0;
        k++;
        if (k < n && (s[k] == '+' || s[k] == '-')) neg = s[k++] == '-';
        for (; k < n && s[k] >= '0' && s[k] <= '9'; k++)
            if (e < 100000) e = 10 * e + (s[k] - '0');
        if (neg) e = -e;
    }
    *digits = d;
    *last = scale + (e > 1000 ? 1000 : e < -1000 ? -1000 : e);   /* a finite nonzero double has |e| < 400 */
}

/* count v, read from s[0..n), in the document's decimals */
static void count_decimal(parser *p, const char *s, size_t n, double v)
{
    if (!(v != 0) || !isfinite(v)) return;
    int digits, last;
    decimal_shape(s, n, &digits, &last);
    cc_jdecimals *dec = &p->doc->dec;
    dec->count++;
    if (digits > dec->max_digits) dec->max_digits = digits;
    /* a float's rounding to these digits lies within half a unit of the last digit of it (a tie
     * exactly so: the margin is for the rounding of v itself and of this test) */
    double half = 0.5 * (last >= -22 && last <= 22 ? (last < 0 ? 1 / pow10_of(-last) : pow10_of(last)) : pow(10, last));
    dec->nonfloat += !(fabs((double)(float)v - v) <= half * (1 + 1e-3) + 4e-16 * fabs(v));
}

/* a number, with the non-finite spellings of other programs */
static int number(parser *p, cc_jv *v)
{
    static const struct { const char *w; double v; } special[] = {
        {"NaN", NAN}, {"nan", NAN}, {"Infinity", INFINITY}, {"-Infinity", -INFINITY},
        {"inf", INFINITY}, {"-inf", -INFINITY}};
    v->type = CC_JV_NUMBER;
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (word(p, special[i].w)) return v->num = special[i].v, 0;
    const char *q = p->s;
    if (q < p->end && *q == '-') q++;
    if (q >= p->end || *q < '0' || *q > '9') return fail(p, "unexpected '%c'", *p->s);
    while (q < p->end && is_number_char(*q)) q++;
    char buf[64], *e;
    size_t n = (size_t)(q - p->s);
    if (n >= sizeof buf) return fail(p, "a number of more than 63 characters");
    if (!exact_number(p->s, n, &v->num)) {
        memcpy(buf, p->s, n);
        buf[n] = '\0';
        v->num = strtod(buf, &e);
        if (*e) return fail(p, "'%s' is not a number", buf);
    }
    count_decimal(p, p->s, n, v->num);
    p->s = q;
    return 0;
}

/* an array or object (p->s at its bracket) */
static int container(parser *p, cc_jv *v, int depth, int object)
{
    char close = object ? '}' : ']';
    size_t base = p->top;
    p->s++;
    skip_space(p);
    if (p->s < p->end && *p->s == close) {
        p->s++;
    } else {
        for (;;) {
            const char *key = NULL;
            cc_jv item;
            skip_space(p);
            if (object) {
                if (p->s >= p->end || *p->s != '"') return fail(p, "an object member's name must be a string");
                if (string(p, &key) < 0) return -1;
                skip_space(p);
                if (p->s >= p->end || *p->s != ':') return fail(p, "':' expected after the name \"%s\"", key);
                p->s++;
            }
            if (value(p, &item, depth + 1) < 0 || push(p, &item, key) < 0) return -1;
            skip_space(p);
            if (p->s < p->end && *p->s == ',') {
                p->s++;
                continue;
            }
            if (p->s < p->end && *p->s == close) {
                p->s++;
                break;
            }
            return fail(p, "',' or '%c' expected", close);
        }
    }
    size_t n = p->top - base;
    v->type = object ? CC_JV_OBJECT : CC_JV_ARRAY;
    v->n = (int)n;
    v->items = n ? arena(p->doc, n * sizeof *v->items) : NULL;
    v->keys = n && object ? arena(p->doc, n * sizeof *v->keys) : NULL;
    if (n && (!v->items || (object && !v->keys))) return fail(p, "out of memory");
    if (n) memcpy(v->items, p->stack + base, n * sizeof *v->items);
    if (n && object) memcpy(v->keys, p->kstack + base, n * sizeof *v->keys);
    p->top = base;
    return 0;
}

static int value(parser *p, cc_jv *v, int depth)
{
    memset(v, 0, sizeof *v);
    if (depth > MAX_DEPTH) return fail(p, "nested more than %d deep", MAX_DEPTH);
    skip_space(p);
    if (p->s >= p->end) return fail(p, "the text ends where a value belongs");
    switch (*p->s) {
    case '{': return container(p, v, depth, 1);
    case '[': return container(p, v, depth, 0);
    case '"': v->type = CC_JV_STRING; return string(p, &v->str);
    default: break;
    }
    if (word(p, "null")) return v->type = CC_JV_NULL, 0;
    if (word(p, "true")) return v->type = CC_JV_BOOL, v->num = 1, 0;
    if (word(p, "false")) return v->type = CC_JV_BOOL, v->num = 0, 0;
    return number(p, v);
}

void cc_jdoc_free(cc_jdoc *d)
{
    if (!d) return;
    for (chunk *c = d->chunks, *next; c; c = next) next = c->next, free(c);
    free(d);
}

cc_jdoc *cc_jdoc_parse(const char *text, size_t len, char *err)
{
    cc_jdoc *d = calloc(1, sizeof *d);
    parser p = {text, text + len, d, NULL, NULL, 0, 0, err, 0};
    if (!d) return snprintf(err, CC_ERRLEN, "out of memory"), NULL;
    int rc = value(&p, &d->root, 0);
    if (rc == 0) {
        skip_space(&p);
        if (p.s < p.end) rc = fail(&p, "text after the value");
    }
    free(p.stack);
    free(p.kstack);
    if (rc < 0) {
        size_t at = (size_t)(p.s - text), n = strlen(err);
        snprintf(err + n, CC_ERRLEN - n, " (at byte %zu)", at);
        cc_jdoc_free(d);
        return NULL;
    }
    return d;
}

const cc_jv *cc_jdoc_root(const cc_jdoc *d) { return &d->root; }

cc_jdecimals cc_jdoc_decimals(const cc_jdoc *d) { return d->dec; }

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

const cc_jv *cc_jv_get(const cc_jv *v, const char *key)
{
    if (!v || v->type != CC_JV_OBJECT) return NULL;
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->keys[i], key)) return &v->items[i];
    return NULL;
}

int cc_jv_is_number(const cc_jv *v) { return v && (v->type == CC_JV_NUMBER || v->type == CC_JV_NULL); }

double cc_jv_number(const cc_jv *v) { return v && v->type == CC_JV_NUMBER ? v->num : NAN; }

const char *cc_jv_type_name(const cc_jv *v)
{
    static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
    return v ? names[v->type] : "nothing";
}
