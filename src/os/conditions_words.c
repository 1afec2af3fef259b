/* conditions_words: the recorded conditions in one line for people (the
 * run header's "conditions:", the side panel, the Topology tab): the
 * recorded words ("a VM", "not supported") in the user's language where
 * the catalogue has them, a governor's or THP's own name as it is. */
#include "config.h"

#include "conditions.h"
#include "base/i18n.h"
#include "base/util.h"

#include <string.h>

const char *mt_conditions_summary(const struct mt_conditions *c, char *buf, size_t len)
{
	char hv[COND_TEXT], w[COND_TEXT];
	buf[0] = '\0';
	if (!c->have) {
		mt_strlcpy(buf, _("conditions not recorded (an import, or an older file)"), len);
		return buf;
	}
	if (c->hypervisor.known && strcmp(c->hypervisor.text, "none") == 0)
		mt_strlcpy(buf, _("not a VM"), len);
	else if (c->hypervisor.known)
		mt_snprintf(buf, len, _("VM (%s)"),
			    mt_gettext_stored(hv, sizeof hv, c->hypervisor.text, NULL));
	if (buf[0])
		mt_append(buf, len, ", ");
	if (c->governor.known)
		mt_append(buf, len, _("governor %s"), c->governor.text);
	else
		mt_append(buf, len, "%s", _("governor unknown"));
	if (c->snc.known)
		mt_append(buf, len, ", %s",
			  c->cpu_nodes > c->packages && c->packages > 0 ? _("SNC/NPS on") : _("SNC off"));
	mt_append(buf, len, ", ");
	if (c->thp.known)
		mt_append(buf, len, _("THP %s"), c->thp.text);
	else
		mt_append(buf, len, "%s", _("THP unknown"));
	if (c->smt.known)
		mt_append(buf, len, _(", SMT %s"), mt_gettext_stored(w, sizeof w, c->smt.text, NULL));
	return buf;
}
