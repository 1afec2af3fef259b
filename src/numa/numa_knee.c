/* numa_knee: what a loaded-latency curve says: its knee (one stated rule)
 * and Little's law at the knee and the peak. Pure arithmetic on the
 * points: the tests give it built curves. See numa.h. */
#include "config.h"

#include "numa.h"
#include "base/i18n.h"

#include <math.h>
#include <string.h>

#define LINE_BYTES 64.0

/* (the JSON's words; people's through _() where printed) */
const char numa_knee_rule[] =
	N_("the knee is the point farthest below the straight line from the idle point to the "
	"peak (the most GB/s measured), bandwidth taken over the peak's and latency rise over "
	"the peak's, each latency first lowered to the least at its bandwidth or above (noise "
	"only adds); no knee where the peak's latency is under 1.2x the idle one or no point "
	"lies below that line");

double numa_inflight(double gbs, double ns)
{
	return gbs > 0 && ns > 0 ? gbs * ns / LINE_BYTES : 0;
}

/* The least latency of the points at bandwidth gbs or above: each point's
 * latency on the lower envelope, which rises with bandwidth. */
static double envelope(const struct numa_point *pts, size_t n, double gbs)
{
	double lo = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (pts[i].gbs >= gbs && pts[i].ns > 0 && pts[i].ns < lo)
			lo = pts[i].ns;
	return lo;
}

int numa_knee_find(const struct numa_point *pts, size_t n, struct numa_knee *k)
{
	double idle, peak_gbs = 0, peak_ns, best = -INFINITY;
	memset(k, 0, sizeof *k);
	if (n == 0 || !(pts[0].ns > 0))
		return 0;
	idle = pts[0].ns;
	for (size_t i = 1; i < n; i++)
		if (pts[i].gbs > peak_gbs && pts[i].ns > 0) {
			peak_gbs = pts[i].gbs;
			k->peak = i;
		}
	if (!k->peak)
		return 0;
	k->peak_ratio = pts[k->peak].ns / idle;
	k->inflight_peak = numa_inflight(peak_gbs, pts[k->peak].ns);
	peak_ns = envelope(pts, n, peak_gbs);
	if (n < 3 || !(peak_ns >= idle * (1 + NUMA_KNEE_RISE)))
		return 0;
	for (size_t i = 1; i < n; i++) {
		double x, y, d;
		if (!(pts[i].ns > 0) || pts[i].gbs <= 0)
			continue;
		x = pts[i].gbs / peak_gbs;
		y = (fmin(envelope(pts, n, pts[i].gbs), peak_ns) - idle) / (peak_ns - idle);
		d = x - (y > 0 ? y : 0);
		if (d > best + 1e-12 || (fabs(d - best) <= 1e-12 && pts[i].gbs < pts[k->knee].gbs)) {
			best = d;
			k->knee = i;
		}
	}
	if (!k->knee || k->knee == k->peak || !(best > 0))
		return k->knee = 0; /* no point below the line: latency rose from the first load */
	k->have = 1;
	k->frac = pts[k->knee].gbs / peak_gbs;
	k->ratio = pts[k->knee].ns / idle;
	k->inflight_knee = numa_inflight(pts[k->knee].gbs, pts[k->knee].ns);
	return 1;
}

const char *numa_knee_text(const struct numa_point *pts, const struct numa_knee *k, char *buf,
			   size_t len)
{
	if (k->have)
		mt_hsnprintf(buf, len, _("knee at %.2f of the peak: %.1f GB/s, latency %.1fx idle "
					 "(%.1f ns)"),
			     k->frac, pts[k->knee].gbs, k->ratio, pts[k->knee].ns);
	else if (!k->peak)
		mt_strlcpy(buf, _("no knee: no loaded point"), len);
	else if (k->peak_ratio < 1 + NUMA_KNEE_RISE)
		mt_hsnprintf(buf, len, _("no knee: latency %.2fx idle at the peak, %.1f GB/s (a knee "
					 "needs a rise of %.1fx)"),
			     k->peak_ratio, pts[k->peak].gbs, 1 + NUMA_KNEE_RISE);
	else
		mt_hsnprintf(buf, len, _("no knee: latency %.2fx idle at the peak, %.1f GB/s, rising "
					 "from the lightest load on (no flat part before it)"),
			     k->peak_ratio, pts[k->peak].gbs);
	return buf;
}

const char *numa_little_text(const struct numa_point *pts, const struct numa_knee *k, char *buf,
			     size_t len)
{
	buf[0] = '\0';
	if (!k->peak)
		return buf;
	if (k->have)
		mt_hsnprintf(buf, len, _("Little's law: %.0f lines of 64 B in flight at the knee "
					 "(%.1f GB/s x %.1f ns), %.0f at the peak (%.1f GB/s x %.1f ns)"),
			     k->inflight_knee, pts[k->knee].gbs, pts[k->knee].ns, k->inflight_peak,
			     pts[k->peak].gbs, pts[k->peak].ns);
	else
		mt_hsnprintf(buf, len, _("Little's law: %.0f lines of 64 B in flight at the peak "
					 "(%.1f GB/s x %.1f ns)"),
			     k->inflight_peak, pts[k->peak].gbs, pts[k->peak].ns);
	return buf;
}
