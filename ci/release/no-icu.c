/*
 * no-icu.c - the release binary's stand-in for ICU's converters.
 *
 * Debian 12's libxml2.a is built with ICU, and linking it statically pulls
 * in libicudata.a: the release binary grows from about 3 MB to 35 MB (the
 * figures are in docs/releasing.md).  libxml2 asks ICU for a converter
 * only when its own (UTF-8, UTF-16, ISO-8859-1, ASCII) and iconv's fail,
 * and perfverdict reads one XML format, Catch2's, which is UTF-8.  So the
 * release binary links these instead: every converter fails to open, and
 * libxml2 reports the encoding as unsupported, which the Catch2 reader
 * turns into its malformed-XML error (exit 3).  Never part of the
 * library or of the dynamic build.
 */
#include <stddef.h>

/* ICU 72's UErrorCode: U_UNSUPPORTED_ERROR */
enum { ICU_UNSUPPORTED_ERROR = 16 };

void *ucnv_open_72(const char *name, int *status);
void ucnv_close_72(void *cnv);
void ucnv_convertEx_72(void *t, void *s, char **tgt, const char *tl,
		       const char **src, const char *sl, void *ps, void **pss,
		       void **pst, void *pl, int reset, int flush, int *status);
void ucnv_setFromUCallBack_72(void *cnv, void *a, const void *b, void *c,
			      const void **d, int *status);
void ucnv_setToUCallBack_72(void *cnv, void *a, const void *b, void *c,
			    const void **d, int *status);
void UCNV_FROM_U_CALLBACK_STOP_72(void);
void UCNV_TO_U_CALLBACK_STOP_72(void);

void *ucnv_open_72(const char *name, int *status)
{
	(void)name;
	*status = ICU_UNSUPPORTED_ERROR;
	return NULL;
}

void ucnv_close_72(void *cnv)
{
	(void)cnv;
}

void ucnv_convertEx_72(void *t, void *s, char **tgt, const char *tl,
		       const char **src, const char *sl, void *ps, void **pss,
		       void **pst, void *pl, int reset, int flush, int *status)
{
	(void)t; (void)s; (void)tgt; (void)tl; (void)src; (void)sl; (void)ps;
	(void)pss; (void)pst; (void)pl; (void)reset; (void)flush;
	*status = ICU_UNSUPPORTED_ERROR;
}

void ucnv_setFromUCallBack_72(void *cnv, void *a, const void *b, void *c,
			      const void **d, int *status)
{
	(void)cnv; (void)a; (void)b; (void)c; (void)d;
	*status = ICU_UNSUPPORTED_ERROR;
}

void ucnv_setToUCallBack_72(void *cnv, void *a, const void *b, void *c,
			    const void **d, int *status)
{
	(void)cnv; (void)a; (void)b; (void)c; (void)d;
	*status = ICU_UNSUPPORTED_ERROR;
}

void UCNV_FROM_U_CALLBACK_STOP_72(void)
{
}

void UCNV_TO_U_CALLBACK_STOP_72(void)
{
}
