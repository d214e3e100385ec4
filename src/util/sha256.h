/*
 * sha256.h - SHA-256 (FIPS 180-4), for the HTML report's
 * Content-Security-Policy: the hash of its one inline script, so that
 * the browser runs that script and nothing else.  Not for secrets: no
 * effort is made against timing or to wipe state.
 */
#ifndef PV_SHA256_H
#define PV_SHA256_H

#include <stddef.h>
#include "strbuf.h"

#define PV_SHA256_LEN 32

void pv_sha256(const void *data, size_t len, unsigned char out[PV_SHA256_LEN]);
/* The digest of data in base64 (RFC 4648, padded), as CSP's
 * 'sha256-...' source wants it, appended to sb. */
void pv_sha256_base64(struct strbuf *sb, const void *data, size_t len);

#endif
