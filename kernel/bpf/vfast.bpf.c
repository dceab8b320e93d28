/* VFAST (P000; docs/algorithms.md "vfast"; crates/sim/src/cc/fast/rtt_filter.rs) for the Linux kernel:
 * FAST's controller whose delay is an asymmetric EWMA s <- psi·x + (1 - psi)·s, psi = psi_up when x > s and
 * psi_down otherwise; by default run once per window update on FAST's avgRTT
 * (docs/algorithms.md#vfast-filter-placement reading b), or per ACK on raw samples in place of FAST's EWMA
 * (filter = per-ack). */
#define DCC_VFAST
#include "dcc_common.h"
#include "dcc_params.h"

struct dcc_params_vfast dcc_params SEC(".data.dccvfast") = DCC_PARAMS_VFAST_DEFAULTS;

struct fast_ext {
	__u64 srtt; /* us << AVG_SHIFT */
	__u8 has_srtt;
};

static __always_inline __u64 asym_ewma(struct fast_ext *x, __u64 sample)
{
	__u32 psi;

	if (!x->has_srtt) {
		x->srtt = sample;
		x->has_srtt = 1;
		return sample;
	}
	psi = sample > x->srtt ? dcc_params.psi_up_milli : dcc_params.psi_down_milli;
	x->srtt = ((__u64)psi * sample + (__u64)(1000 - psi) * x->srtt) / 1000;
	return x->srtt;
}

#define DCC_PROG(n) dcc_vfast_##n
#define DCC_NAME "dcc_vfast"
#define DCC_OPS dcc_vfast
#include "fast_core.h"

static __always_inline void ext_init(struct fast_ext *x)
{
	x->srtt = 0;
	x->has_srtt = 0;
}

static __always_inline bool ext_per_ack_avg(struct fast_ext *x, __u64 sample, __u64 *avg)
{
	if (!dcc_params.per_ack)
		return false;
	*avg = asym_ewma(x, sample);
	return true;
}

static __always_inline __u64 ext_delay(struct fast_ext *x, __u64 avg)
{
	return dcc_params.per_ack ? avg : asym_ewma(x, avg);
}
