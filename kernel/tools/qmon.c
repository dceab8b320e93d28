/* dcc-qmon: samples the queues of emulated links (the root qdisc of an interface: tbf with its pfifo).
 *
 *   dcc-qmon T0_NS INTERVAL_US END_US NETNS:IFNAME [NETNS:IFNAME ...]
 *
 * At every T0 + k·INTERVAL up to T0 + END it asks each namespace's kernel (rtnetlink, RTM_GETQDISC) for
 * the root qdisc statistics of each interface and prints one line per interface:
 *   q,t_us,index,qlen_pkts,backlog_bytes,drops,sent_bytes,sent_pkts
 * where index is the interface's position in the argument list. One process and one netlink socket per
 * namespace instead of a `tc -s qdisc` process per sample. Exits at the end or on SIGTERM/SIGINT.
 */
#include "nsutil.h"

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <signal.h>
#include <sys/socket.h>

#define MAX_IFS 256

struct target {
	int sock;
	int ifindex;
};

static struct target targets[MAX_IFS];
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Finds the statistics in one RTM_NEWQDISC message; returns 1 if it is the root qdisc of ifindex. */
static int parse_qdisc(struct nlmsghdr *nh, int ifindex, struct gnet_stats_queue *q, struct gnet_stats_basic *b)
{
	struct tcmsg *tcm = NLMSG_DATA(nh);
	int len = (int)nh->nlmsg_len - NLMSG_LENGTH(sizeof(*tcm));
	struct rtattr *rta;

	if (tcm->tcm_ifindex != ifindex || tcm->tcm_parent != TC_H_ROOT)
		return 0;
	for (rta = (struct rtattr *)((char *)tcm + NLMSG_ALIGN(sizeof(*tcm))); RTA_OK(rta, len);
	     rta = RTA_NEXT(rta, len)) {
		struct rtattr *in;
		int in_len;

		if (rta->rta_type != TCA_STATS2)
			continue;
		in_len = (int)RTA_PAYLOAD(rta);
		for (in = RTA_DATA(rta); RTA_OK(in, in_len); in = RTA_NEXT(in, in_len)) {
			if (in->rta_type == TCA_STATS_QUEUE)
				memcpy(q, RTA_DATA(in), sizeof(*q));
			else if (in->rta_type == TCA_STATS_BASIC)
				memcpy(b, RTA_DATA(in), sizeof(*b));
		}
	}
	return 1;
}

static void sample(int index, uint64_t t_us)
{
	static char buf[1 << 16] __attribute__((aligned(4)));
	struct target *t = &targets[index];
	struct {
		struct nlmsghdr nh;
		struct tcmsg tcm;
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETQDISC,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = (uint32_t)t_us },
		.tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = t->ifindex },
	};
	struct gnet_stats_queue q = { 0 };
	struct gnet_stats_basic b = { 0 };
	int found = 0, done = 0;

	if (send(t->sock, &req, sizeof(req), 0) < 0)
		return;
	while (!done) {
		ssize_t r = recv(t->sock, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;
		int len = (int)r;

		if (r <= 0)
			return;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, len); nh = NLMSG_NEXT(nh, len)) {
			if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			if (nh->nlmsg_type == RTM_NEWQDISC && !found)
				found = parse_qdisc(nh, t->ifindex, &q, &b);
		}
	}
	if (found)
		printf("q,%llu,%d,%u,%u,%u,%llu,%u\n", (unsigned long long)t_us, index, q.qlen, q.backlog, q.drops,
		       (unsigned long long)b.bytes, b.packets);
}

int main(int argc, char **argv)
{
	uint64_t t0, interval, end, next;
	int n = argc - 4;

	if (argc < 5 || n > MAX_IFS) {
		fprintf(stderr, "usage: dcc-qmon T0_NS INTERVAL_US END_US NETNS:IFNAME [...]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	dcc_die_with_parent();
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	t0 = strtoull(argv[1], NULL, 10);
	interval = strtoull(argv[2], NULL, 10) * 1000ull;
	end = t0 + strtoull(argv[3], NULL, 10) * 1000ull;
	for (int i = 0; i < n; i++) {
		char *f[2];
		int home;

		if (dcc_split(argv[4 + i], f, 2) != 2) {
			fprintf(stderr, "dcc-qmon: expected NETNS:IFNAME, got %s\n", argv[4 + i]);
			return 2;
		}
		home = dcc_enter_netns(f[0]);
		targets[i].sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
		targets[i].ifindex = (int)if_nametoindex(f[1]);
		if (targets[i].sock < 0 || !targets[i].ifindex)
			dcc_die(argv[4 + i]);
		dcc_leave_netns(home);
	}
	printf("ready\n");
	fflush(stdout);
	for (next = t0 + interval; next <= end && !stop; next += interval) {
		struct timespec ts = dcc_timespec(next);

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR && !stop)
			;
		for (int i = 0; i < n && !stop; i++)
			sample(i, (next - t0) / 1000);
		fflush(stdout);
	}
	return 0;
}
