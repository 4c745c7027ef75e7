/* The two JSON readers side by side (see jtokens.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/jread.h"
#include "io/jsonr.h"
#include "jtokens.h"

static void scalar(FILE *f, const char *type, const char *str, double num)
{
    if (str) fprintf(f, "%s %s\n", type, str);
    else fprintf(f, "%s %.17g\n", type, num);
}

static void walk(FILE *f, const cc_jv *v)
{
    switch (v->type) {
    case CC_JV_NULL: fputs("null\n", f); return;
    case CC_JV_BOOL: scalar(f, "boolean", NULL, v->num); return;
    case CC_JV_NUMBER: scalar(f, "number", NULL, v->num); return;
    case CC_JV_STRING: scalar(f, "string", v->str, 0); return;
    case CC_JV_ARRAY:
    case CC_JV_OBJECT:
        fputs(v->type == CC_JV_ARRAY ? "[\n" : "{\n", f);
        for (int i = 0; i < v->n; i++) {
            if (v->keys) fprintf(f, "key %s\n", v->keys[i]);
            walk(f, &v->items[i]);
        }
        fputs(v->type == CC_JV_ARRAY ? "]\n" : "}\n", f);
        return;
    }
}

static void decimals(FILE *f, cc_jdecimals d)
{
    fprintf(f, "decimals %ld %ld %d\n", d.count, d.nonfloat, d.max_digits);
}

char *cc_jtokens_dom(const char *text, size_t len)
{
    char *out = NULL, err[CC_ERRLEN];
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    if (!f) return NULL;
    cc_jdoc *d = cc_jdoc_parse(text, len, err);
    if (!d) {
        fprintf(f, "refused: %s\n", err);
    } else {
        walk(f, cc_jdoc_root(d));
        decimals(f, cc_jdoc_decimals(d));
    }
    cc_jdoc_free(d);
    fclose(f);
    return out;
}

/* a text handed over `piece` bytes at a time */
typedef struct pieces {
    const char *text;
    size_t len, piece, consumed, given;
    char *window;   /* the window, in a block of its own size */
} pieces;

static int source(void *ctx, size_t done, const char **s, size_t *n, char *err)
{
    pieces *p = ctx;
    (void)err;
    p->consumed += done;
    int more = p->given < p->len;
    if (more) p->given = p->given + p->piece < p->len ? p->given + p->piece : p->len;
    free(p->window);
    p->window = malloc(p->given - p->consumed + 1);
    if (!p->window) return snprintf(err, CC_ERRLEN, "out of memory"), -1;
    memcpy(p->window, p->text + p->consumed, p->given - p->consumed);
    *s = p->window, *n = p->given - p->consumed;
    return more;
}

/* the value whose token t was just read, written as walk writes it */
static int value(FILE *f, cc_jread *r, int t)
{
    switch (t) {
    case CC_JT_NULL: fputs("null\n", f); return 0;
    case CC_JT_BOOL:
    case CC_JT_NUMBER: scalar(f, cc_jread_type_name(t), NULL, r->num); return 0;
    case CC_JT_STRING: scalar(f, "string", r->str, 0); return 0;
    case CC_JT_ARRAY:
    case CC_JT_OBJECT:
        fputs(t == CC_JT_ARRAY ? "[\n" : "{\n", f);
        for (int u; (u = cc_jread_next(r)) != CC_JT_CLOSE;) {
            if (u == CC_JT_FAIL) return -1;
            if (t == CC_JT_OBJECT) fprintf(f, "key %s\n", r->key);
            if (value(f, r, u) < 0) return -1;
        }
        fputs(t == CC_JT_ARRAY ? "]\n" : "}\n", f);
        return 0;
    default: return -1;
    }
}

char *cc_jtokens_stream(const char *text, size_t len, size_t piece)
{
    char *out = NULL, *walked = NULL;
    size_t n = 0, wn = 0;
    pieces p = {text, len, piece ? piece : 1, 0, 0, NULL};
    FILE *f = open_memstream(&out, &n), *w = open_memstream(&walked, &wn);
    if (!f || !w) return NULL;
    cc_jread r;
    cc_jread_init(&r, source, &p);
    if (value(w, &r, cc_jread_next(&r)) < 0 || cc_jread_end(&r) < 0) {
        fprintf(f, "refused: %s\n", r.err);
    } else {
        fclose(w), w = NULL;
        fputs(walked, f);
        decimals(f, r.dec);
    }
    if (w) fclose(w);
    free(walked);
    cc_jread_free(&r);
    free(p.window);
    fclose(f);
    return out;
}
