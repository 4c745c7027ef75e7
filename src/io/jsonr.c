/* Reading JSON (see jsonr.h): a recursive-descent parser into an arena. Arrays and objects
 * collect their elements on a scratch stack and copy them into the arena when they close,
 * so each is one contiguous block. */
#include <math.h>
#include <stdarg.h>
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
    cc_jline(p->err, msg);
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

/* a string (p->s at its opening quote) into the arena: *out */
static int string(parser *p, const char **out)
{
    const char *q = ++p->s, *stop;
    while (q < p->end && *q != '"') q += *q == '\\' ? 2 : 1;
    if (q >= p->end) return fail(p, "a string is not closed");
    char *o = arena(p->doc, (size_t)(q - p->s) + 1), why[CC_ERRLEN];
    if (!o) return fail(p, "out of memory");
    int rc = cc_jstr_decode(p->s, q, o, &stop, why);
    p->s = stop;
    if (rc < 0) return fail(p, "%s", why);
    *out = o;
    return 0;
}

/* a number, with the non-finite spellings of other programs */
static int number(parser *p, cc_jv *v)
{
    char why[CC_ERRLEN];
    const char *stop;
    v->type = CC_JV_NUMBER;
    if (cc_jnum_read(p->s, p->end, &p->doc->dec, &v->num, &stop, why) < 0) return fail(p, "%s", why);
    p->s = stop;
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
