/* FAST's parameters as the loader writes them (python/delaycc/kernel/algorithms.py FAST_FIELDS, same
 * order). Defaults and their sources: crates/sim/src/cc/fast.rs and docs/algorithms.md "fast". The BPF
 * FAST runs the round cadence (one update per other round); the simulator's default is the ns-2 module's,
 * so the emulation asks scenarios to set cadence = "round". */
#ifndef DCC_FAST_PARAMS_H
#define DCC_FAST_PARAMS_H

struct dcc_fast_params {
	__u32 alpha_milli;           /* 100000: the ns-2 module's alpha_ 100 */
	__u32 gamma_milli;           /* 500: P000 eq. (3), ns-2 gamma_ = 0.5 */
	__u32 every_other;           /* 1: ns-2 UPDATE_CWND_EVERY_OTHER_RTT (F1) */
	__u32 min_update_interval_us; /* 10000: the module's cwnd_update_period_ 0.01 */
	__u32 spread;                /* 1: ns-2 fast_pace */
	__u32 mi_threshold_us;       /* 750: the module's mi_threshold_ */
	__u32 mi_reentry;            /* 1: the module tests it on every new ACK */
	__u32 cap_2w;                /* 0: the module has no cap (P002-P004 write one) */
	__u32 max_weight_q20;        /* 4096 = 2^20/256: the module's avgRTT weight cap (F4) */
};

#define DCC_FAST_DEFAULTS                                                                          \
	{                                                                                          \
		.alpha_milli = 100000, .gamma_milli = 500, .every_other = 1, .min_update_interval_us = 10000, \
		.spread = 1, .mi_threshold_us = 750, .mi_reentry = 1, .cap_2w = 0,                 \
		.max_weight_q20 = (1U << 20) / 256,                                                \
	}

#endif
