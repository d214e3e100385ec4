/* unit.h - what every cmocka test includes first. */
#ifndef PV_UNIT_H
#define PV_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#endif
