/* A double printed as printf's "%.17g" prints it (round to nearest, ties to even, on the exact
 * binary value: 17 significant digits, which every correctly rounding reader reads back as the
 * same double), without printf: the numbers clothcheck sends to other programs and writes to
 * JSON, millions of them in a check of a real mesh.
 *
 * For 1e-11 <= |v| < 4e15 the 17 digits come from one exact integer product, v 10^s =
 * m 5^s 2^(s + e) (v = m 2^e, m < 2^53, 0 < s <= 27, so m 5^s < 2^116), shifted with its
 * remainder; zeros are "0" and "-0"; every other double goes to snprintf.
 */
#ifndef CC_G17_H
#define CC_G17_H

#define CC_G17_LEN 32   /* room for any "%.17g" of a double, with its NUL */

/* the text snprintf(out, CC_G17_LEN, "%.17g", v) writes into out; its length */
int cc_g17(char out[CC_G17_LEN], double v);

#endif
