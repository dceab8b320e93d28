/* TCP Vegas as delaycc specifies it (docs/algorithms.md#vegas), the same
 * rules as crates/sim/src/cc/vegas/, for the Linux kernel as a BPF tcp_congestion_ops.
 *
 * Once per RTT round (rounds counted by sequence number): diff = cwnd·(RTT − baseRTT)/RTT; below alpha the
 * window grows by one, above beta it shrinks by one. RTT is the round's mean sample (or minimum). Slow
 * start doubles every other round and ends when diff exceeds gamma, at min(cwnd, cwnd·baseRTT/RTT + 1).
 * Differences from the simulator (docs/kernel.md): the window is the kernel's integer cwnd; on fast
 * retransmit the kernel asks only for ssthresh and reduces by PRR, so the lost packet's history is not
 * known and the reduction is always loss_reduction (the simulator halves when a retransmission was lost).
 */
#include "dcc_common.h"
#include "dcc_params.h"

/* Rewritten by the loader; layout and defaults (crates/sim/src/cc/vegas/mod.rs) are in dcc_params.h. */
struct dcc_params_vegas dcc_vegas_params SEC(".data.dccvegas") = DCC_PARAMS_VEGAS_DEFAULTS;

struct vegas {
	__u64 round_sum;  /* us */
	__u32 base_rtt;   /* us; DCC_NO_RTT before the first sample */
	__u32 round_min;  /* us */
	__u32 round_n;
	__u32 round_end;  /* the round ends when snd_una passes this sequence number */
	__u32 diff_milli; /* the last diff, for inspection */
	__u8 ca_state;    /* tracked through set_state: the kernel's field is a bitfield */
	__u8 slow_start;  /* explicit: a decrement in congestion avoidance never falls back into it */
	__u8 grow_this_round;
};
DCC_ASSERT_STATE_FITS(struct vegas);

static __always_inline void round_reset(struct vegas *v)
{
	v->round_min = DCC_NO_RTT;
	v->round_sum = 0;
	v->round_n = 0;
}

SEC("struct_ops")
void BPF_PROG(dcc_vegas_init, struct sock *sk)
{
	struct vegas *v = dcc_ca(sk);

	v->base_rtt = DCC_NO_RTT;
	v->round_end = dcc_tcp_sk(sk)->snd_nxt;
	v->diff_milli = 0;
	v->ca_state = TCP_CA_Open;
	v->slow_start = 1;
	v->grow_this_round = 1;
	round_reset(v);
}

SEC("struct_ops")
void BPF_PROG(dcc_vegas_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct vegas *v = dcc_ca(sk);
	__u32 rtt;

	/* Karn's rule is the kernel's (no sample from retransmitted packets); none during recovery. */
	if (sample->rtt_us <= 0 || v->ca_state > TCP_CA_Disorder)
		return;
	rtt = dcc_max((__u32)sample->rtt_us, 1);
	v->base_rtt = dcc_min(v->base_rtt, rtt);
	v->round_min = dcc_min(v->round_min, rtt);
	v->round_sum += rtt;
	v->round_n++;
}

/* The round's RTT: its minimum sample (Linux), or the mean of its samples (ns-2). */
static __always_inline __u32 round_rtt(const struct vegas *v)
{
	if (dcc_vegas_params.use_mean)
		return (__u32)(v->round_sum / v->round_n);
	return v->round_min;
}

static __always_inline void end_of_round(struct sock *sk, struct vegas *v)
{
	struct tcp_sock *tp = dcc_tcp_sk(sk);
	__u32 cwnd = tp->snd_cwnd;
	__u32 base = v->base_rtt;
	__u32 rtt;
	__u64 diff;

	if (base == DCC_NO_RTT || v->round_n == 0)
		return;
	rtt = round_rtt(v);
	rtt = dcc_max(rtt, base);
	diff = (__u64)cwnd * 1000 * (rtt - base) / rtt;
	v->diff_milli = (__u32)diff;
	if (v->slow_start && cwnd >= tp->snd_ssthresh)
		v->slow_start = 0; /* back at the threshold a timeout left: Reno's congestion avoidance */
	if (v->slow_start) {
		if (diff > dcc_vegas_params.gamma_milli) {
			/* Leave at the window the path carries without queueing, plus one. */
			__u32 target = (__u32)((__u64)cwnd * base / rtt) + 1;

			cwnd = dcc_max(dcc_min(cwnd, target), 2);
			tp->snd_ssthresh = cwnd;
			v->slow_start = 0;
		} else {
			v->grow_this_round = !v->grow_this_round;
		}
	} else if (diff > dcc_vegas_params.beta_milli) {
		cwnd = dcc_max(cwnd - 1, 2);
	} else if (diff < dcc_vegas_params.alpha_milli) {
		cwnd += 1;
	}
	tp->snd_cwnd = dcc_min(cwnd, tp->snd_cwnd_clamp);
}

SEC("struct_ops")
void BPF_PROG(dcc_vegas_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	struct tcp_sock *tp = dcc_tcp_sk(sk);
	struct vegas *v = dcc_ca(sk);

	/* Safe slow start: grow only in every other round (one packet per acked packet). */
	if (v->slow_start && v->grow_this_round && tp->snd_cwnd < tp->snd_ssthresh)
		tp->snd_cwnd = dcc_min(tp->snd_cwnd + acked, tp->snd_cwnd_clamp);
	if (dcc_after(tp->snd_una, v->round_end)) {
		end_of_round(sk, v);
		v->round_end = tp->snd_nxt;
		round_reset(v);
	}
}

/* Fast retransmit: the kernel reduces the window to what this returns (by PRR) and sets cwnd to it when
 * recovery ends. */
SEC("struct_ops")
__u32 BPF_PROG(dcc_vegas_ssthresh, struct sock *sk)
{
	struct tcp_sock *tp = dcc_tcp_sk(sk);
	struct vegas *v = dcc_ca(sk);
	__u32 w = (__u32)((__u64)tp->snd_cwnd * dcc_vegas_params.loss_reduction_milli / 1000);

	v->slow_start = 0;
	return dcc_max(w, 2);
}

/* Retransmission timeout (called right after ssthresh): Reno's rule, then slow start from one packet
 * (the kernel sets cwnd to the packets in flight + 1) until ssthresh. */
SEC("struct_ops")
void BPF_PROG(dcc_vegas_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	struct tcp_sock *tp = dcc_tcp_sk(sk);
	struct vegas *v = dcc_ca(sk);

	if (ev != CA_EVENT_LOSS)
		return;
	tp->snd_ssthresh = dcc_max(tp->snd_cwnd / 2, 2);
	v->slow_start = 1;
	v->grow_this_round = 1;
	v->round_end = tp->snd_nxt;
	round_reset(v);
}

SEC("struct_ops")
void BPF_PROG(dcc_vegas_set_state, struct sock *sk, __u8 new_state)
{
	struct vegas *v = dcc_ca(sk);

	v->ca_state = new_state;
}

/* No undo: the simulator never restores a window after a spurious retransmission. */
SEC("struct_ops")
__u32 BPF_PROG(dcc_vegas_undo_cwnd, struct sock *sk)
{
	return dcc_tcp_sk(sk)->snd_cwnd;
}

SEC(".struct_ops")
struct tcp_congestion_ops dcc_vegas = {
	.init = (void *)dcc_vegas_init,
	.ssthresh = (void *)dcc_vegas_ssthresh,
	.cong_avoid = (void *)dcc_vegas_cong_avoid,
	.set_state = (void *)dcc_vegas_set_state,
	.cwnd_event = (void *)dcc_vegas_cwnd_event,
	.pkts_acked = (void *)dcc_vegas_pkts_acked,
	.undo_cwnd = (void *)dcc_vegas_undo_cwnd,
	.flags = DCC_CONG_NON_RESTRICTED,
	.name = "dcc_vegas",
};
