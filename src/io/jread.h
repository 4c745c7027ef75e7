/* Reading JSON as it arrives: one document, pulled a token at a time from a source that hands
 * over its text in pieces, so that a document of any length is read in the memory of its
 * longest token (a string, or a number's 63 characters).
 *
 * It reads what the document reader (jsonr.h) reads, refuses what it refuses, with the same
 * one-line reason and byte offset, and counts the decimals of every number alike. The tokens
 * of a document are its scalars and the opening and closing of its arrays and objects, in
 * order; inside an object, each value's member name is in `key` when its token is returned
 * (valid until the next call).
 *
 *     cc_jread r;
 *     cc_jread_init(&r, source, ctx);
 *     for (int t = cc_jread_next(&r); t > CC_JT_CLOSE; t = cc_jread_next(&r)) ...
 */
#ifndef CC_JREAD_H
#define CC_JREAD_H

#include "io/jlex.h"

#include <stddef.h>

/* The text of the document: the source drops the first `done` bytes of the window it gave
 * last (the reader is through with them), and sets *s, *n to the window of every byte it holds
 * after those, with more at its end if more came. 1: more came; 0: the document ends with this
 * window; -1: the source failed, with a one-line reason in err. */
typedef int (*cc_jread_source)(void *ctx, size_t done, const char **s, size_t *n, char *err);

typedef enum cc_jtoken {
    CC_JT_FAIL = -1,   /* not JSON, or the source failed: `err` says which */
    CC_JT_CLOSE,       /* the end of the array or object the last open one */
    CC_JT_OBJECT,      /* an object opens: its members' tokens follow, then CC_JT_CLOSE */
    CC_JT_ARRAY,       /* an array opens */
    CC_JT_STRING,      /* `str` holds it, unescaped, NUL-terminated */
    CC_JT_NUMBER,      /* `num` (null is CC_JT_NULL) */
    CC_JT_BOOL,        /* `num` is 0 or 1 */
    CC_JT_NULL
} cc_jtoken;

#define CC_JREAD_DEPTH 64   /* arrays and objects nested deeper are refused, as jsonr.h does */

typedef struct cc_jread {
    cc_jread_source source;
    void *ctx;
    const char *s;          /* the window: text from `base` on, s[0..n) */
    size_t n, at, base;     /* its length, the reader's place in it, and the bytes before it */
    int ended;              /* the source said the document ends with the window */
    int state;              /* what comes next (jread.c) */
    int depth;              /* arrays and objects open */
    char open[CC_JREAD_DEPTH + 1];   /* '{' or '[' of each */
    char *key, *str;        /* the last member name and the last string read */
    size_t keycap, strcap;
    double num;
    cc_jdecimals dec;       /* the decimals of the numbers read */
    int failed;             /* 1 not JSON, 2 the source failed */
    char err[CC_ERRLEN];
} cc_jread;

void cc_jread_init(cc_jread *r, cc_jread_source source, void *ctx);
/* the next token (the first: the document's value); CC_JT_FAIL once it fails, for good */
int cc_jread_next(cc_jread *r);
/* skip the rest of the value whose token t was the last returned (an array's or object's
 * members to its close; nothing for a scalar); 0 or -1 */
int cc_jread_skip(cc_jread *r, int t);
/* after the document's value: only blanks follow ("text after the value" otherwise); 0 or -1 */
int cc_jread_end(cc_jread *r);
/* the name of a value's type by its token, as cc_jv_type_name names it */
const char *cc_jread_type_name(int t);
void cc_jread_free(cc_jread *r);

#endif
