/*
 * banned.h - calls we never want, made to fail at compile time (git's
 * banned.h): sprintf, strcpy, strcat and strncpy write past a buffer or
 * truncate without saying so.  Use snprintf(), a strbuf, or memcpy() with
 * a length you know.
 *
 * Every source file includes this last, after every system header (the
 * macros would otherwise rewrite the C library's own declarations);
 * tests/check_util.sh checks both that and that each call is refused.
 */
#ifndef PV_BANNED_H
#define PV_BANNED_H

/* The error names the call: "sorry_sprintf_is_a_banned_function". */
#define PV_BANNED(func) sorry_##func##_is_a_banned_function

#undef sprintf
#undef vsprintf
#undef strcpy
#undef strcat
#undef strncpy
#undef strncat
#define sprintf(...) PV_BANNED(sprintf)
#define vsprintf(...) PV_BANNED(vsprintf)
#define strcpy(x, y) PV_BANNED(strcpy)
#define strcat(x, y) PV_BANNED(strcat)
#define strncpy(x, y, n) PV_BANNED(strncpy)
#define strncat(x, y, n) PV_BANNED(strncat)

#endif
