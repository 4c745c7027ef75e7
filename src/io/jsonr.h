/* Reading JSON: one document (a line of the process protocol) into a tree of values.
 *
 * Standard JSON (RFC 8259), and the non-finite numbers other programs write: NaN, Infinity,
 * -Infinity (Python's json), nan, inf, -inf; null reads as a value of its own, and as a
 * number it is NaN (cc_jv_number). Every value of a document lives in the document's arena
 * and goes with cc_jdoc_free.
 */
#ifndef CC_JSONR_H
#define CC_JSONR_H

#include "io/error.h"
#include "io/jlex.h"

#include <stddef.h>

typedef enum cc_jv_type {
    CC_JV_NULL,
    CC_JV_BOOL,
    CC_JV_NUMBER,
    CC_JV_STRING,
    CC_JV_ARRAY,
    CC_JV_OBJECT
} cc_jv_type;

/* A value: its type says which member of the union holds it (24 bytes: the answers of the
 * system protocol hold millions of numbers). */
typedef struct cc_jv {
    cc_jv_type type;
    int n;                       /* array: elements; object: members; otherwise 0 */
    union {
        double num;              /* number; bool as 0 or 1 */
        const char *str;         /* string, unescaped and NUL-terminated (UTF-8 as given) */
        struct {
            struct cc_jv *items; /* array elements, or object member values */
            const char **keys;   /* object member names, in the order given (NULL for an array) */
        };
    };
} cc_jv;

typedef struct cc_jdoc cc_jdoc;

/* the document in text[0..len); NULL and a one-line reason in err if it is not
 * JSON, with the byte offset where reading stopped */
cc_jdoc *cc_jdoc_parse(const char *text, size_t len, char *err);
/* the top-level value */
const cc_jv *cc_jdoc_root(const cc_jdoc *d);
/* the decimals of the document's numbers */
cc_jdecimals cc_jdoc_decimals(const cc_jdoc *d);
void cc_jdoc_free(cc_jdoc *d);

/* member `key` of object v, or NULL (also when v is not an object) */
const cc_jv *cc_jv_get(const cc_jv *v, const char *key);
/* 1 if v is a number or null (the non-finite numbers included) */
int cc_jv_is_number(const cc_jv *v);
/* v as a number: null is NaN */
double cc_jv_number(const cc_jv *v);
/* the name of v's type ("number", "array", ...) */
const char *cc_jv_type_name(const cc_jv *v);

#endif
