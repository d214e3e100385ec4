/*
 * regexguard.h - compile a regex from a config file only when glibc can
 * handle it in bounded time and memory.
 *
 * The patterns come from a config file, which CI may take from the
 * change under test, so they are hostile input.  glibc's regcomp()
 * copies a sub-expression for every bound of a repetition, and the
 * copies multiply when repetitions nest or stack ("(a{99}){99}",
 * "c++++++++"): such a pattern takes minutes and gigabytes to compile.
 * Back-references make regexec() backtrack exponentially.  Before
 * calling regcomp(), pv_regex_compile() refuses
 *  - back-references ("\1" ... "\9"), which POSIX EREs do not have;
 *  - a repetition right after another ("a+*", "a{2}?"), undefined for
 *    EREs in POSIX;
 *  - patterns that expand to more than PV_REGEX_MAX_COST elements.
 *
 * Contract: on success it returns 0 and *re holds the compiled pattern
 * (the caller regfree()s it).  On failure it returns -1, *re holds
 * nothing to free, and msg (of msgsize bytes) says why in lowercase,
 * without the pattern: the caller names the key and quotes the pattern.
 * It keeps no state and may be called from any thread.
 */
#ifndef PV_REGEXGUARD_H
#define PV_REGEXGUARD_H

#include <regex.h>
#include <stddef.h>

/* The most elements a pattern may expand to in regcomp(). */
#define PV_REGEX_MAX_COST 1000UL

int pv_regex_compile(regex_t *re, const char *pattern, int cflags,
		     char *msg, size_t msgsize);

#endif
