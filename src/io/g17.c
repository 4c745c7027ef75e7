/* "%.17g" without printf (see g17.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "io/g17.h"

#define TEN16 10000000000000000ull
#define TEN17 100000000000000000ull

/* the 128-bit product a b as hi 2^64 + lo */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = mid << 32 | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* floor(k log10 2) for |k| < 1000 (78913 / 2^18 is log10 2 to within 8e-7, too little to move
 * the floor of any k log10 2 there) */
static int floor_log10_pow2(int k)
{
    return k >= 0 ? (k * 78913) >> 18 : -((-k * 78913 + (1 << 18) - 1) >> 18);
}

/* The 17 digits of m 2^e 10^s (0 <= s <= 27), rounded to nearest, ties to even, into *d:
 * 1 when m 2^e 10^s lies in [10^16, 10^17) (*d may round up to 10^17), 0 when it is 10^17 or
 * more, -1 when the product is not a right shift of m 5^s by 1 to 63 bits or is below 10^16. */
static int digits17(uint64_t m, int e, int s, uint64_t *d)
{
    static const uint64_t pow5[28] = {
        1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull, 1953125ull, 9765625ull,
        48828125ull, 244140625ull, 1220703125ull, 6103515625ull, 30517578125ull, 152587890625ull,
        762939453125ull, 3814697265625ull, 19073486328125ull, 95367431640625ull, 476837158203125ull,
        2384185791015625ull, 11920928955078125ull, 59604644775390625ull, 298023223876953125ull,
        1490116119384765625ull, 7450580596923828125ull};
    int shift = -(s + e);
    if (s < 0 || s > 27 || shift < 1 || shift > 63) return -1;
    uint64_t hi, lo;
    mul64(m, pow5[s], &hi, &lo);
    if (hi >> shift) return 0;   /* 2^64 or more */
    uint64_t q = lo >> shift | hi << (64 - shift), rem = lo & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (q >= TEN17) return 0;
    if (q < TEN16) return -1;
    *d = q + (rem > half || (rem == half && (q & 1)));
    return 1;
}

/* the text of digits dg[0..16] (dg[0] nonzero) times 10^(x - 16), -11 <= x <= 17, %g's way
 * with 17 digits: fixed for -4 <= x < 17, else d.ddde+XX; trailing zeros and a bare point
 * dropped */
static char *format(char *p, const char dg[17], int x)
{
    int last = 16;
    while (dg[last] == '0') last--;
    if (x < -4 || x >= 17) {
        *p++ = dg[0];
        if (last > 0) *p++ = '.', memcpy(p, dg + 1, (size_t)last), p += last;
        *p++ = 'e', *p++ = x < 0 ? '-' : '+';
        int a = x < 0 ? -x : x;
        *p++ = (char)('0' + a / 10), *p++ = (char)('0' + a % 10);
    } else if (x >= 0) {
        memcpy(p, dg, (size_t)x + 1), p += x + 1;
        if (last > x) *p++ = '.', memcpy(p, dg + x + 1, (size_t)(last - x)), p += last - x;
    } else {
        *p++ = '0', *p++ = '.';
        for (int k = 0; k < -x - 1; k++) *p++ = '0';
        memcpy(p, dg, (size_t)last + 1), p += last + 1;
    }
    return p;
}

int cc_g17(char out[CC_G17_LEN], double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int neg = (int)(bits >> 63), be = (int)(bits >> 52 & 0x7ff);
    uint64_t m = bits & ((1ull << 52) - 1);
    if (be == 0 && m == 0) return memcpy(out, neg ? "-0" : "0", (size_t)neg + 2), neg + 1;
    int x = floor_log10_pow2(be - 1023), rc = -1;   /* 10^x <= |v| < 10^(x + 2) */
    uint64_t d = 0;
    m |= 1ull << 52;
    if (be != 0 && be != 0x7ff && x >= -11 && x <= 15) {
        rc = digits17(m, be - 1075, 16 - x, &d);
        if (rc == 0) rc = digits17(m, be - 1075, 16 - ++x, &d);
    }
    if (rc != 1) return snprintf(out, CC_G17_LEN, "%.17g", v);
    if (d == TEN17) d = TEN16, x++;   /* 9.99...95 rounded up to the next power of ten */
    char dg[17], *p = out;
    uint32_t hi = (uint32_t)(d / 100000000u), lo = (uint32_t)(d % 100000000u);   /* 9 and 8 digits */
    for (int k = 16; k >= 9; k--) dg[k] = (char)('0' + lo % 10), lo /= 10;
    for (int k = 8; k >= 0; k--) dg[k] = (char)('0' + hi % 10), hi /= 10;
    if (neg) *p++ = '-';
    p = format(p, dg, x);
    *p = '\0';
    return (int)(p - out);
}
