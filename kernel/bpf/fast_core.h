/* The FAST controller (docs/algorithms.md "fast", the rules of crates/sim/src/cc/fast/) as BPF
 * tcp_congestion_ops hooks. VFAST and RRFast are this controller with a component plugged in, as in the
 * simulator: their .bpf.c files define DCC_VFAST or DCC_RRFAST, their parameter section and component
 * (struct fast_ext and its functions), then include this file.
 *
 * The includer defines before including:
 *   DCC_PROG(n)     the program name for hook n (dcc_<algorithm>_n; the loader finds <name>_init)
 *   DCC_NAME        the tcp_congestion_ops name (a string, at most 15 characters)
 *   DCC_OPS         the struct_ops variable name
 *   dcc_params      a variable in a .data.dcc* section whose .fast is a struct dcc_fast_params
 *   struct fast_ext the component's per-socket state (may be empty)
 *
 * Fixed point: windows carry DCC_W_SHIFT fractional bits; avgRTT is in microseconds << 8 so the 1/256
 * per-ACK weight still moves it. Differences from the simulator are listed in docs/kernel.md.
 */
#ifndef DCC_FAST_CORE_H
#define DCC_FAST_CORE_H

#include "dcc_common.h"

#define AVG_SHIFT 8
#define DCC_BPF_PROG(name, args...) BPF_PROG(name, args)
#define P (dcc_params.fast)

struct fast {
	__u64 avg_rtt;        /* us << AVG_SHIFT; valid when has_avg */
	__u64 last_update_us; /* when the window equation last ran (or recovery ended) */
	__u32 w;              /* the window, fixed point */
	__u32 base_rtt;       /* us; DCC_NO_RTT before the first sample and after an RRFast reset */
	__u32 delay_used;     /* us: the delay the last update used (avgRTT, or VFAST's SRTT) */
	__u32 round_end;      /* the round ends when snd_una passes this */
	__u32 rounds;
	__u32 pending_inc;    /* fixed point: increase still to spread over this period's ACKs */
	__u32 inc_per_ack;    /* fixed point, per acked packet */
	__u32 period_min;     /* us: smallest RTT sample since the last update */
	__u32 w_old;          /* fixed point: the window in flight when the last acked packet left */
	__u8 ca_state;        /* tracked through set_state: the kernel's field is a bitfield */
	__u8 mi;              /* multiplicative-increase start-up (+1 per acked packet) */
	__u8 has_avg;
};

struct fast_state {
	struct fast f;
	struct fast_ext x;
};
DCC_ASSERT_STATE_FITS(struct fast_state);

/* The component's hooks, defined by vfast.bpf.c / rrfast.bpf.c; plain FAST leaves them out. */
#ifdef DCC_VFAST
static __always_inline bool ext_per_ack_avg(struct fast_ext *x, __u64 sample, __u64 *avg);
static __always_inline __u64 ext_delay(struct fast_ext *x, __u64 avg);
static __always_inline void ext_init(struct fast_ext *x);
#else
static __always_inline bool ext_per_ack_avg(struct fast_ext *x, __u64 sample, __u64 *avg) { return false; }
static __always_inline __u64 ext_delay(struct fast_ext *x, __u64 avg) { return avg; }
#ifndef DCC_RRFAST
static __always_inline void ext_init(struct fast_ext *x) {}
#endif
#endif
#ifdef DCC_RRFAST
static __always_inline bool ext_after_update(struct fast_ext *x, __u32 w, __u32 target, __u32 base,
					     __u32 avg_us, __u32 period_min, __u32 alpha_fp);
static __always_inline void ext_init(struct fast_ext *x);
#else
static __always_inline bool ext_after_update(struct fast_ext *x, __u32 w, __u32 target, __u32 base,
					     __u32 avg_us, __u32 period_min, __u32 alpha_fp) { return false; }
#endif

static __always_inline __u32 alpha_fp(void)
{
	return (__u32)((__u64)P.alpha_milli * DCC_W_ONE / 1000);
}

static __always_inline void set_cwnd(struct sock *sk, const struct fast *f)
{
	struct tcp_sock *tp = dcc_tcp_sk(sk);

	tp->snd_cwnd = dcc_min(dcc_max(f->w >> DCC_W_SHIFT, 2), tp->snd_cwnd_clamp);
}

/* avgRTT: an EWMA with per-ACK weight min(3/w, max_weight) (the module's), unless VFAST filters per ACK. */
static __always_inline void on_sample(struct fast_state *s, __u32 rtt)
{
	struct fast *f = &s->f;
	__u64 x = (__u64)rtt << AVG_SHIFT;
	__u64 weight, delta;

	f->base_rtt = dcc_min(f->base_rtt, rtt);
	f->period_min = dcc_min(f->period_min, rtt);
	if (ext_per_ack_avg(&s->x, x, &f->avg_rtt)) {
		f->has_avg = 1;
		return;
	}
	if (!f->has_avg) {
		f->avg_rtt = x;
		f->has_avg = 1;
		return;
	}
	weight = (3ULL << (20 + DCC_W_SHIFT)) / dcc_max(f->w, 1);
	if (weight > P.max_weight_q20)
		weight = P.max_weight_q20;
	if (x >= f->avg_rtt) {
		delta = ((x - f->avg_rtt) * weight) >> 20;
		f->avg_rtt += delta;
	} else {
		delta = ((f->avg_rtt - x) * weight) >> 20;
		f->avg_rtt -= delta;
	}
}

/* The window equation, once per update period:
 *   w <- min(2w, (1 - gamma)·w + gamma·(baseRTT/delay·w_old + alpha)),  w >= 2 */
static __always_inline void update(struct fast_state *s)
{
	struct fast *f = &s->f;
	__u64 delay, term, target;
	__u32 w = f->w, avg_us;

	if (f->base_rtt == DCC_NO_RTT || !f->has_avg)
		return;
	avg_us = (__u32)(f->avg_rtt >> AVG_SHIFT);
	delay = ext_delay(&s->x, f->avg_rtt) >> AVG_SHIFT;
	if (!delay)
		delay = 1;
	f->delay_used = (__u32)delay;
	term = (__u64)f->base_rtt * f->w_old / delay;
	target = ((__u64)(1000 - P.gamma_milli) * w + (__u64)P.gamma_milli * (term + alpha_fp())) / 1000;
	if (P.cap_2w && target > 2ULL * w)
		target = 2ULL * w;
	if (target < 2 * DCC_W_ONE)
		target = 2 * DCC_W_ONE;
	if (target > 0x3fffffff)
		target = 0x3fffffff;
	if (ext_after_update(&s->x, w, (__u32)target, f->base_rtt, avg_us, f->period_min, alpha_fp())) {
		/* Rerouted to a longer path: forget baseRTT (the next sample defines it) and skip this update. */
		f->base_rtt = DCC_NO_RTT;
		f->period_min = DCC_NO_RTT;
		return;
	}
	if (target > w && P.spread && w > 4 * DCC_W_ONE) {
		__u64 acks = (__u64)w * (P.every_other ? 2 : 1); /* fixed point */

		f->pending_inc = (__u32)target - w;
		f->inc_per_ack = (__u32)(((__u64)f->pending_inc << DCC_W_SHIFT) / acks);
	} else {
		f->w = (__u32)target;
		f->pending_inc = 0;
	}
	f->period_min = DCC_NO_RTT;
}

SEC("struct_ops")
void DCC_BPF_PROG(DCC_PROG(init), struct sock *sk)
{
	struct fast_state *s = dcc_ca(sk);
	struct fast *f = &s->f;

	__builtin_memset(f, 0, sizeof(*f));
	f->w = dcc_max(dcc_tcp_sk(sk)->snd_cwnd, 2) << DCC_W_SHIFT;
	f->base_rtt = DCC_NO_RTT;
	f->period_min = DCC_NO_RTT;
	f->round_end = dcc_tcp_sk(sk)->snd_nxt;
	f->last_update_us = dcc_now_us(sk);
	f->ca_state = TCP_CA_Open;
	f->mi = 1;
	ext_init(&s->x);
	set_cwnd(sk, f);
}

SEC("struct_ops")
void DCC_BPF_PROG(DCC_PROG(pkts_acked), struct sock *sk, const struct ack_sample *sample)
{
	struct fast_state *s = dcc_ca(sk);
	struct fast *f = &s->f;

	if (f->ca_state == TCP_CA_Recovery || f->ca_state == TCP_CA_CWR) {
		/* Frozen during recovery; the period restarts when it ends. No samples
		 * (docs/algorithms.md#fast-basertt-after-loss). */
		f->last_update_us = dcc_now_us(sk);
		return;
	}
	f->w_old = dcc_w_old_fp(sk, sample);
	if (sample->rtt_us > 0)
		on_sample(s, dcc_max((__u32)sample->rtt_us, 1));
}

SEC("struct_ops")
void DCC_BPF_PROG(DCC_PROG(cong_avoid), struct sock *sk, __u32 ack, __u32 acked)
{
	struct tcp_sock *tp = dcc_tcp_sk(sk);
	struct fast_state *s = dcc_ca(sk);
	struct fast *f = &s->f;
	bool round_done = dcc_after(tp->snd_una, f->round_end);
	__u32 queueing = 0;
	__u64 now = dcc_now_us(sk);

	if (round_done) {
		f->round_end = tp->snd_nxt;
		f->rounds++;
	}
	if (f->pending_inc) {
		__u32 step = dcc_min(f->inc_per_ack * acked, f->pending_inc);

		f->w += step;
		f->pending_inc -= step;
	}
	if (f->has_avg && f->base_rtt != DCC_NO_RTT) {
		__u32 avg_us = (__u32)(f->avg_rtt >> AVG_SHIFT);

		queueing = avg_us > f->base_rtt ? avg_us - f->base_rtt : 0;
	}
	if (P.mi_reentry)
		f->mi = queueing < P.mi_threshold_us;
	else if (f->mi && queueing >= P.mi_threshold_us)
		f->mi = 0;
	if (f->mi)
		f->w += acked << DCC_W_SHIFT;
	if (round_done) {
		bool due = !P.every_other || (f->rounds % 2) == 0;

		if (due && !f->mi && now - f->last_update_us >= P.min_update_interval_us) {
			update(s);
			f->last_update_us = now;
		}
	}
	set_cwnd(sk, f);
}

/* Fast retransmit (and the first step of a timeout): halve the window; the kernel reduces cwnd to it by
 * PRR and sets cwnd to it when recovery ends. */
SEC("struct_ops")
__u32 DCC_BPF_PROG(DCC_PROG(ssthresh), struct sock *sk)
{
	struct fast_state *s = dcc_ca(sk);
	struct fast *f = &s->f;

	f->w = dcc_max(f->w / 2, 2 * DCC_W_ONE);
	f->pending_inc = 0;
	f->mi = 0;
	return f->w >> DCC_W_SHIFT;
}

/* Timeout (right after ssthresh, which already set ssthresh to half the window): restart from 2
 * packets with multiplicative increase. */
SEC("struct_ops")
void DCC_BPF_PROG(DCC_PROG(cwnd_event), struct sock *sk, enum tcp_ca_event ev)
{
	struct fast_state *s = dcc_ca(sk);
	struct fast *f = &s->f;

	if (ev != CA_EVENT_LOSS)
		return;
	f->w = 2 * DCC_W_ONE;
	f->pending_inc = 0;
	f->mi = 1;
	f->last_update_us = dcc_now_us(sk);
}

SEC("struct_ops")
void DCC_BPF_PROG(DCC_PROG(set_state), struct sock *sk, __u8 new_state)
{
	struct fast_state *s = dcc_ca(sk);
	struct fast *f = &s->f;

	if (f->ca_state == TCP_CA_Recovery && new_state == TCP_CA_Open)
		f->last_update_us = dcc_now_us(sk);
	f->ca_state = new_state;
}

/* No undo: the window is the controller's (the simulator never restores one). */
SEC("struct_ops")
__u32 DCC_BPF_PROG(DCC_PROG(undo_cwnd), struct sock *sk)
{
	return dcc_tcp_sk(sk)->snd_cwnd;
}

SEC(".struct_ops")
struct tcp_congestion_ops DCC_OPS = {
	.init = (void *)DCC_PROG(init),
	.ssthresh = (void *)DCC_PROG(ssthresh),
	.cong_avoid = (void *)DCC_PROG(cong_avoid),
	.set_state = (void *)DCC_PROG(set_state),
	.cwnd_event = (void *)DCC_PROG(cwnd_event),
	.pkts_acked = (void *)DCC_PROG(pkts_acked),
	.undo_cwnd = (void *)DCC_PROG(undo_cwnd),
	.flags = DCC_CONG_NON_RESTRICTED,
	.name = DCC_NAME,
};

#endif
