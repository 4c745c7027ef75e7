/* libFuzzer target: the JSON readers of the process protocols (cc_jdoc_parse, src/io/jsonr.c,
 * and the streaming cc_jread, src/io/jread.c).
 *
 * The input is one answer line as a program might write it. The reader either refuses it with
 * a one-line message or returns a document whose every value can be walked; a document that
 * is one number reads as strtod reads it, bit for bit (the exact path for short numbers and
 * strtod for the rest must agree). The streaming reader, handed the text in pieces of a size
 * the input's first byte picks, reads the same tokens and decimals, or refuses it alike.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/jsonr.h"
#include "jtokens.h"

/* visit every value below v; abort on a shape the reader must not produce */
static void walk(const cc_jv *v, int depth)
{
    if (depth > 70) abort();
    switch (v->type) {
    case CC_JV_NULL:
    case CC_JV_BOOL:
    case CC_JV_NUMBER: return;
    case CC_JV_STRING:
        if (!v->str) abort();
        (void)strlen(v->str);
        return;
    case CC_JV_ARRAY:
    case CC_JV_OBJECT:
        if (v->n < 0 || (v->n > 0 && !v->items) || (v->type == CC_JV_OBJECT && v->n > 0 && !v->keys)) abort();
        for (int i = 0; i < v->n; i++) {
            if (v->type == CC_JV_OBJECT && cc_jv_get(v, v->keys[i]) == NULL) abort();
            walk(&v->items[i], depth + 1);
        }
        return;
    }
    abort();
}

/* the two readers alike on text[0..n) cut into pieces of `piece` bytes */
static void alike(const char *text, size_t n, size_t piece)
{
    char *want = cc_jtokens_dom(text, n), *got = cc_jtokens_stream(text, n, piece);
    if (!want || !got) abort();
    if (strcmp(want, got)) {
        fprintf(stderr, "the readers differ (pieces of %zu):\n%s-- against --\n%s", piece, got, want);
        abort();
    }
    free(want), free(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CC_ERRLEN] = "";
    if (size > 0) alike((const char *)data + 1, size - 1, 1 + data[0] % 67);
    cc_jdoc *d = cc_jdoc_parse((const char *)data, size, err);
    if (!d) {
        if (!err[0] || strchr(err, '\n')) abort();
        return 0;
    }
    const cc_jv *root = cc_jdoc_root(d);
    walk(root, 0);
    /* one plain number (digits, sign, point, exponent; no NaN or Infinity): strtod's value */
    if (root->type == CC_JV_NUMBER && size < 64) {
        char text[64];
        memcpy(text, data, size);
        text[size] = '\0';
        if (strspn(text, " \t\r\n0123456789+-.eE") == size) {
            double want = strtod(text, NULL), got = cc_jv_number(root);
            if (memcmp(&want, &got, sizeof want)) abort();
        }
    }
    cc_jdoc_free(d);
    return 0;
}
