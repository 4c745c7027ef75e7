/* The two JSON readers side by side (tests and tests/fuzz/fuzz_json.c): a document's tokens
 * written out as each reader reads it, one per line, so that the streaming reader (jread.h)
 * can be compared with the document reader (jsonr.h) on any text cut into any pieces. */
#ifndef CC_JTOKENS_H
#define CC_JTOKENS_H

#include <stddef.h>

/* text[0..len)'s tokens as cc_jdoc_parse reads it ("{", "key a", "number 1.5", "}", ..., then a
 * line of the decimals counted), or "refused: REASON"; malloc'd */
char *cc_jtokens_dom(const char *text, size_t len);
/* the same as cc_jread reads it from a source handing over `piece` bytes at a time, each piece
 * in a buffer of its own size (a read past the window is a read past a block) */
char *cc_jtokens_stream(const char *text, size_t len, size_t piece);

#endif
