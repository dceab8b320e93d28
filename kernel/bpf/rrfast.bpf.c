/* RRFast (P002; docs/algorithms.md "rrfast"; crates/sim/src/cc/fast/reroute.rs) for the Linux kernel:
 * FAST's controller plus a reroute detector. An update that cuts the window while FAST's backlog estimate
 * w·(1-baseRTT/avgRTT) exceeds 2·alpha starts a probe remembering the period's minimum RTT. If a later
 * period's minimum falls by max(rtt_drop_abs, rtt_drop_rel·queueing delay) the rise was congestion; if
 * after probe_updates updates the window is min_cut below where it was and the RTT has not fallen, the
 * path got longer: baseRTT is forgotten and that update skipped. After probe_max_updates a probe ends. */
#define DCC_RRFAST
#include "dcc_common.h"
#include "dcc_params.h"

struct dcc_params_rrfast dcc_params SEC(".data.dccrrfast") = DCC_PARAMS_RRFAST_DEFAULTS;

struct fast_ext {
	__u32 rtt_ref; /* us: the period's minimum RTT when the probe began */
	__u32 w_ref;   /* fixed point: the window when the probe began */
	__u32 updates; /* updates since the probe began */
	__u32 resets;  /* baseRTT resets so far (each a possible false positive) */
	__u8 probing;
};

#define DCC_PROG(n) dcc_rrfast_##n
#define DCC_NAME "dcc_rrfast"
#define DCC_OPS dcc_rrfast
#include "fast_core.h"

static __always_inline void ext_init(struct fast_ext *x)
{
	x->rtt_ref = 0;
	x->w_ref = 0;
	x->updates = 0;
	x->resets = 0;
	x->probing = 0;
}

static __always_inline bool ext_after_update(struct fast_ext *x, __u32 w, __u32 target, __u32 base,
					     __u32 avg_us, __u32 period_min, __u32 alpha)
{
	__u32 queueing, need;

	if (!x->probing) {
		/* backlog = w·(1 - base/avg), fixed point */
		__u64 backlog = avg_us > base ? (__u64)w * (avg_us - base) / avg_us : 0;

		if (target < w && backlog > 2ULL * alpha && period_min != DCC_NO_RTT) {
			x->probing = 1;
			x->rtt_ref = period_min;
			x->w_ref = w;
			x->updates = 0;
		}
		return false;
	}
	x->updates++;
	queueing = x->rtt_ref > base ? x->rtt_ref - base : 0;
	need = dcc_max(dcc_params.rtt_drop_abs_us, (__u32)((__u64)dcc_params.rtt_drop_rel_milli * queueing / 1000));
	if (period_min != DCC_NO_RTT && x->rtt_ref > period_min && x->rtt_ref - period_min >= need) {
		x->probing = 0; /* the cut drained a queue: congestion */
		return false;
	}
	if (x->updates >= dcc_params.probe_updates &&
	    (__u64)target * 1000 <= (__u64)(1000 - dcc_params.min_cut_milli) * x->w_ref) {
		x->probing = 0;
		x->resets++;
		return true;
	}
	if (x->updates >= dcc_params.probe_max_updates)
		x->probing = 0;
	return false;
}
