/* FAST's parameters as the loader writes them (python/delaycc/kernel/algorithms.py FAST_FIELDS, same
 * order). Defaults and their sources: crates/sim/src/cc/fast.rs and docs/algorithms.md "fast". */
#ifndef DCC_FAST_PARAMS_H
#define DCC_FAST_PARAMS_H

struct dcc_fast_params {
	__u32 alpha_milli;           /* 200000: P000 scenario I, Caltech ns-2 scripts (alpha_ = 200) */
	__u32 gamma_milli;           /* 500: P000 eq. (3), ns-2 gamma_ = 0.5 */
	__u32 every_other;           /* 1: ns-2 UPDATE_CWND_EVERY_OTHER_RTT (F1) */
	__u32 min_update_interval_us; /* 0: our choice (F1) */
	__u32 spread;                /* 1: ns-2 fast_pace */
	__u32 mi_threshold_us;       /* 750: F7 */
	__u32 mi_reentry;            /* 0: our choice */
	__u32 cap_2w;                /* 1: P002-P004 and the module (F2) */
	__u32 max_weight_q20;        /* 4096 = 2^20/256: the module's avgRTT weight cap (F4) */
};

#define DCC_FAST_DEFAULTS                                                                          \
	{                                                                                          \
		.alpha_milli = 200000, .gamma_milli = 500, .every_other = 1, .min_update_interval_us = 0, \
		.spread = 1, .mi_threshold_us = 750, .mi_reentry = 0, .cap_2w = 1,                 \
		.max_weight_q20 = (1U << 20) / 256,                                                \
	}

#endif
