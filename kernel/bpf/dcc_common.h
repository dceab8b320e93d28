/* Shared by every delaycc BPF congestion controller: the struct_ops boilerplate and the kernel TCP
 * fields the algorithms read or write. Written for the hooks of struct tcp_congestion_ops as this kernel
 * exports them through BTF (vmlinux.h is generated at build time from /sys/kernel/btf/vmlinux).
 *
 * Conventions of the algorithms (see docs/kernel.md):
 *  - no floating point in BPF: windows are fixed point with DCC_W_SHIFT fractional bits, RTTs are in
 *    microseconds, parameters arrive scaled by 1000 ("milli" units) from user space;
 *  - parameters live in a per-algorithm data section (.data.dcc*) that the loader rewrites after
 *    registration, so one registered algorithm has one parameter set shared by all its sockets;
 *  - the per-socket state lives in inet_csk_ca(sk) (13 u64 in this kernel) and is checked at build time.
 */
#ifndef DCC_COMMON_H
#define DCC_COMMON_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

/* TCP_CONG_NON_RESTRICTED: lets a network namespace choose the algorithm through its sysctl. Without
 * it such an attempt is refused and, in this kernel, leaks a reference to the program. */
#define DCC_CONG_NON_RESTRICTED 0x1

#define DCC_W_SHIFT 10
#define DCC_W_ONE (1U << DCC_W_SHIFT)
#define DCC_INFINITE_SSTHRESH 0x7fffffff
#define DCC_NO_RTT 0xffffffffU

#define DCC_CA_PRIV_BYTES (13 * 8)
#define DCC_ASSERT_STATE_FITS(type) \
	_Static_assert(sizeof(type) <= DCC_CA_PRIV_BYTES, #type " must fit in inet_csk_ca")

static __always_inline struct tcp_sock *dcc_tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static __always_inline void *dcc_ca(const struct sock *sk)
{
	return (void *)((struct inet_connection_sock *)sk)->icsk_ca_priv;
}

static __always_inline __u32 dcc_min(__u32 a, __u32 b)
{
	return a < b ? a : b;
}

static __always_inline __u32 dcc_max(__u32 a, __u32 b)
{
	return a > b ? a : b;
}

/* Sequence comparison with wrap-around, as the kernel's after(). */
static __always_inline bool dcc_after(__u32 seq1, __u32 seq2)
{
	return (__s32)(seq2 - seq1) < 0;
}

/* Monotonic microseconds of the socket's clock (the kernel's tcp_mstamp, refreshed per ACK). */
static __always_inline __u64 dcc_now_us(const struct sock *sk)
{
	return dcc_tcp_sk(sk)->tcp_mstamp;
}

/* The window in flight when the acked packet was sent: the kernel gives the bytes delivered between that
 * packet's departure and its ACK (ack_sample.in_flight), which is that window once the path is full. */
static __always_inline __u32 dcc_w_old_fp(const struct sock *sk, const struct ack_sample *s)
{
	__u32 mss = dcc_tcp_sk(sk)->mss_cache;

	if (!mss)
		return 0;
	return (__u32)(((__u64)s->in_flight << DCC_W_SHIFT) / mss);
}

#endif
