#include "writers.h"
int pv_write_html(const struct pv_report *r, FILE *fp, struct pv_err *err)
{
	(void)r; (void)fp;
	return pv_error(err, PV_EUSAGE, "html: not yet");
}
