/*
 * banned.h - calls we never want, made to fail at compile time (git's
 * banned.h, the same list): sprintf, strcpy, strcat and strncpy write
 * past a buffer or truncate without saying so (use snprintf(), a
 * strbuf, or memcpy() with a length you know); strtok and strtok_r
 * write into the string and keep state between calls; gmtime,
 * localtime, ctime and asctime return static storage (use gmtime_r or
 * localtime_r, and strftime), ctime_r and asctime_r give no buffer
 * size; mktemp races (use mkstemp).
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

#undef strtok
#undef strtok_r
#undef gmtime
#undef localtime
#undef ctime
#undef ctime_r
#undef asctime
#undef asctime_r
#undef mktemp
#define strtok(x, y) PV_BANNED(strtok)
#define strtok_r(x, y, z) PV_BANNED(strtok_r)
#define gmtime(t) PV_BANNED(gmtime)
#define localtime(t) PV_BANNED(localtime)
#define ctime(t) PV_BANNED(ctime)
#define ctime_r(t, buf) PV_BANNED(ctime_r)
#define asctime(t) PV_BANNED(asctime)
#define asctime_r(t, buf) PV_BANNED(asctime_r)
#define mktemp(x) PV_BANNED(mktemp)

#endif
