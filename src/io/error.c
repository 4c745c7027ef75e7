/* The one way of failing with a reason (error.h). */
#include <stdarg.h>
#include <stdio.h>
#include "io/error.h"

int cc_fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, CC_ERRLEN, fmt, ap);
    va_end(ap);
    return -1;
}
