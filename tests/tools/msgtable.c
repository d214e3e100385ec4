/* msgtable - print the table of messages (src/util/msg.c) as
 * "code<TAB>level<TAB>text" lines, for tests/check_messages.sh to
 * compare with docs/messages.md. */
#include <stdio.h>
#include "util/msg.h"

int main(void)
{
	for (int i = 1; i < PV_M_MAX; i++) {
		const struct pv_msg_info *m = pv_msg_info((enum pv_msg)i);

		printf("%s\t%s\t%s\n", m->code, pv_level_name(m->level),
		       m->text);
	}
	return fflush(stdout) ? 1 : 0;
}
