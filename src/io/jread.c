/* Reading JSON as it arrives (see jread.h): jsonr.c's recursive descent unrolled into a state
 * per token, over a window of the text that the source slides on. Every refusal is made at the
 * byte where jsonr.c makes it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/jread.h"

enum { S_START, S_OPEN, S_AFTER, S_DONE };   /* before the value; after '[' or '{'; after a member; done */

void cc_jread_init(cc_jread *r, cc_jread_source source, void *ctx)
{
    memset(r, 0, sizeof *r);
    r->source = source, r->ctx = ctx;
}

void cc_jread_free(cc_jread *r)
{
    free(r->key), free(r->str);
    r->key = r->str = NULL;
}

static int fail(cc_jread *r, const char *fmt, ...)
{
    if (r->failed) return CC_JT_FAIL;
    r->failed = 1;
    char msg[CC_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cc_jline(r->err, msg);
    size_t n = strlen(r->err);
    snprintf(r->err + n, CC_ERRLEN - n, " (at byte %zu)", r->base + r->at);
    return CC_JT_FAIL;
}

/* more text from the source, the window starting at the reader's place; 1 more came, 0 no more
 * will, -1 the source failed */
static int refill(cc_jread *r)
{
    if (r->ended) return 0;
    char why[CC_ERRLEN] = "the source failed";
    int rc = r->source(r->ctx, r->at, &r->s, &r->n, why);
    r->base += r->at, r->at = 0;
    if (rc < 0) {
        if (!r->failed) r->failed = 2, snprintf(r->err, CC_ERRLEN, "%s", why);
        return -1;
    }
    if (rc == 0) r->ended = 1;
    return rc;
}

/* k bytes in the window from the reader's place, or all there are; 0 or -1 */
static int ensure(cc_jread *r, size_t k)
{
    while (r->n - r->at < k && !r->ended)
        if (refill(r) < 0) return -1;
    return 0;
}

/* past blanks; then at < n unless the text has ended; 0 or -1 */
static int skip_space(cc_jread *r)
{
    for (;;) {
        while (r->at < r->n && (r->s[r->at] == ' ' || r->s[r->at] == '\t' || r->s[r->at] == '\n' || r->s[r->at] == '\r'))
            r->at++;
        if (r->at < r->n || r->ended) return 0;
        if (refill(r) < 0) return -1;
    }
}

/* 1 if the window continues with word w (and consumes it) */
static int word(cc_jread *r, const char *w)
{
    size_t n = strlen(w);
    if (r->n - r->at < n || memcmp(r->s + r->at, w, n)) return 0;
    r->at += n;
    return 1;
}

/* the string at the reader's place (its opening quote) into *buf; 0 or -1 */
static int string(cc_jread *r, char **buf, size_t *cap)
{
    size_t q = 0;   /* from the reader's place: the closing quote, once found */
    r->at++;
    for (;;) {
        const char *s = r->s + r->at;
        size_t m = r->n - r->at;
        while (q < m && s[q] != '"') q += s[q] == '\\' ? 2 : 1;
        if (q < m) break;
        if (r->ended) return fail(r, "a string is not closed");
        if (refill(r) < 0) return -1;
    }
    if (q + 1 > *cap) {
        size_t c = q + 1 > 2 * *cap ? q + 1 : 2 * *cap;
        char *b = realloc(*buf, c);
        if (!b) return fail(r, "out of memory");
        *buf = b, *cap = c;
    }
    const char *stop;
    char why[CC_ERRLEN];
    int rc = cc_jstr_decode(r->s + r->at, r->s + r->at + q, *buf, &stop, why);
    r->at = (size_t)(stop - r->s);
    return rc < 0 ? fail(r, "%s", why) : 0;
}

/* the value at the reader's place: its token */
static int value(cc_jread *r)
{
    if (r->depth > CC_JREAD_DEPTH) return fail(r, "nested more than %d deep", CC_JREAD_DEPTH);
    if (skip_space(r) < 0) return CC_JT_FAIL;
    if (r->at >= r->n) return fail(r, "the text ends where a value belongs");
    char c = r->s[r->at];
    if (c == '{' || c == '[') {
        r->at++;
        r->open[r->depth++] = c;
        r->state = S_OPEN;
        return c == '{' ? CC_JT_OBJECT : CC_JT_ARRAY;
    }
    r->state = r->depth ? S_AFTER : S_DONE;
    if (c == '"') return string(r, &r->str, &r->strcap) < 0 ? CC_JT_FAIL : CC_JT_STRING;
    if (ensure(r, CC_JNUM_MAX + 1) < 0) return CC_JT_FAIL;   /* the longest word, or number */
    if (c == 'n' && word(r, "null")) return CC_JT_NULL;
    if (c == 't' && word(r, "true")) return r->num = 1, CC_JT_BOOL;
    if (c == 'f' && word(r, "false")) return r->num = 0, CC_JT_BOOL;
    const char *start = r->s + r->at, *stop;
    char why[CC_ERRLEN];
    if (cc_jnum_read(start, r->s + r->n, &r->dec, &r->num, &stop, why) < 0) return fail(r, "%s", why);
    r->at = (size_t)(stop - r->s);
    return CC_JT_NUMBER;
}

/* an array's element or an object's member, at the reader's place (past blanks) */
static int member(cc_jread *r)
{
    if (r->open[r->depth - 1] == '[') return value(r);
    if (r->at >= r->n || r->s[r->at] != '"') return fail(r, "an object member's name must be a string");
    if (string(r, &r->key, &r->keycap) < 0 || skip_space(r) < 0) return CC_JT_FAIL;
    if (r->at >= r->n || r->s[r->at] != ':') return fail(r, "':' expected after the name \"%s\"", r->key);
    r->at++;
    return value(r);
}

int cc_jread_next(cc_jread *r)
{
    if (r->failed) return CC_JT_FAIL;
    if (r->state == S_START) return value(r);
    if (r->state == S_DONE) return fail(r, "read past the end of the value");
    if (skip_space(r) < 0) return CC_JT_FAIL;
    char close = r->open[r->depth - 1] == '{' ? '}' : ']';
    if (r->at < r->n && r->s[r->at] == close) {
        r->at++;
        r->depth--;
        r->state = r->depth ? S_AFTER : S_DONE;
        return CC_JT_CLOSE;
    }
    if (r->state == S_AFTER) {
        if (r->at >= r->n || r->s[r->at] != ',') return fail(r, "',' or '%c' expected", close);
        r->at++;
        if (skip_space(r) < 0) return CC_JT_FAIL;
    }
    return member(r);
}

int cc_jread_skip(cc_jread *r, int t)
{
    if (t != CC_JT_OBJECT && t != CC_JT_ARRAY) return t == CC_JT_FAIL ? -1 : 0;
    for (int depth = r->depth;;) {
        int u = cc_jread_next(r);
        if (u == CC_JT_FAIL) return -1;
        if (u == CC_JT_CLOSE && r->depth < depth) return 0;
    }
}

int cc_jread_end(cc_jread *r)
{
    if (r->failed) return -1;
    if (r->state != S_DONE) return fail(r, "the value is not read to its end"), -1;
    if (skip_space(r) < 0) return -1;
    if (r->at < r->n) return fail(r, "text after the value"), -1;
    return 0;
}

const char *cc_jread_type_name(int t)
{
    switch (t) {
    case CC_JT_OBJECT: return "object";
    case CC_JT_ARRAY: return "array";
    case CC_JT_STRING: return "string";
    case CC_JT_NUMBER: return "number";
    case CC_JT_BOOL: return "boolean";
    case CC_JT_NULL: return "null";
    default: return "nothing";
    }
}
