/* dcc-delay: the propagation delay of emulated links, as a user-space delay line on NFQUEUE.
 *
 *   dcc-delay NETNS:QUEUE:DELAY_US [NETNS:QUEUE:DELAY_US ...]
 *
 * Each argument binds netfilter queue QUEUE in namespace NETNS (the harness sends one link direction's
 * packets there with an iptables NFQUEUE rule at the receiving node's ingress) and holds every packet for
 * DELAY_US microseconds before accepting it. Delays are constant per queue, so packets leave in the order
 * they came and one batch verdict ("accept everything up to this packet id") releases all that are due.
 * Prints "ready" once every queue is bound (before that the kernel would drop queued packets), and exits
 * on SIGTERM or SIGINT. Only packet metadata is copied to user space, never the payload.
 *
 * How late each packet left (release time to verdict) is the emulation's own timing error, which
 * delay-based algorithms read as queueing; on exit one line per queue reports it for the harness:
 *   late QUEUE PACKETS OVERFLOWS MEAN_US P50_US P99_US MAX_US
 */
#include "nsutil.h"

#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <sched.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>

#define MAX_QUEUES 256
#define RING_BITS 17 /* 131072 packets held per queue: several seconds at the tool's ~30 kpps */
#define RING_SIZE (1u << RING_BITS)
#define QUEUE_MAXLEN 200000
#define LATE_BUCKET_US 10
#define LATE_BUCKETS 10000 /* 10 us resolution up to 100 ms; later ones count in the last bucket */

struct held {
	uint32_t id;
	uint64_t release_ns;
};

struct line {
	struct nfq_handle *h;
	struct nfq_q_handle *qh;
	int fd;
	uint64_t delay_ns;
	struct held *ring;
	uint32_t head, tail; /* entries [head, tail) are held */
	uint64_t packets, overflows;
	uint64_t *late_hist; /* released packets by lateness, LATE_BUCKET_US wide */
	uint64_t late_sum_ns, late_max_ns, released;
};

static struct line lines[MAX_QUEUES];
static int n_lines;
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *data)
{
	struct line *l = data;
	struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
	uint32_t id;

	(void)msg;
	if (!ph)
		return 0;
	id = ntohl(ph->packet_id);
	if (l->tail - l->head == RING_SIZE) {
		/* Cannot hold it: a drop, like a full link, rather than passing it undelayed. */
		l->overflows++;
		return nfq_set_verdict(qh, id, NF_DROP, 0, NULL);
	}
	l->ring[l->tail & (RING_SIZE - 1)] = (struct held){ .id = id, .release_ns = dcc_now_ns() + l->delay_ns };
	l->tail++;
	l->packets++;
	return 0;
}

static void record_lateness(struct line *l, uint64_t late_ns)
{
	uint64_t bucket = late_ns / (LATE_BUCKET_US * 1000ull);

	l->late_hist[bucket < LATE_BUCKETS ? bucket : LATE_BUCKETS - 1]++;
	l->late_sum_ns += late_ns;
	if (late_ns > l->late_max_ns)
		l->late_max_ns = late_ns;
	l->released++;
}

/* The lateness below which a fraction q of the released packets left, in microseconds (bucket top). */
static uint64_t late_quantile_us(const struct line *l, double q)
{
	uint64_t want = (uint64_t)(q * (double)l->released + 0.5), seen = 0;

	for (uint32_t b = 0; b < LATE_BUCKETS; b++) {
		seen += l->late_hist[b];
		if (seen >= want && seen > 0)
			return (b + 1) * (uint64_t)LATE_BUCKET_US;
	}
	return (uint64_t)LATE_BUCKETS * LATE_BUCKET_US;
}

/* Accepts every packet whose time has come; returns the earliest release time still pending (0: none). */
static uint64_t release_due(uint64_t now)
{
	uint64_t next = 0;

	for (int i = 0; i < n_lines; i++) {
		struct line *l = &lines[i];
		uint32_t last = 0;
		int any = 0;

		while (l->head != l->tail && l->ring[l->head & (RING_SIZE - 1)].release_ns <= now) {
			struct held *p = &l->ring[l->head & (RING_SIZE - 1)];

			record_lateness(l, now - p->release_ns);
			last = p->id;
			l->head++;
			any = 1;
		}
		if (any && nfq_set_verdict_batch(l->qh, last, NF_ACCEPT) < 0)
			fprintf(stderr, "dcc-delay: verdict failed on queue %d\n", i);
		if (l->head != l->tail) {
			uint64_t t = l->ring[l->head & (RING_SIZE - 1)].release_ns;

			if (!next || t < next)
				next = t;
		}
	}
	return next;
}

static void bind_line(struct line *l, char *spec)
{
	char *f[3];
	int home, one = 1;

	if (dcc_split(spec, f, 3) != 3) {
		fprintf(stderr, "dcc-delay: expected NETNS:QUEUE:DELAY_US, got %s\n", spec);
		exit(2);
	}
	l->delay_ns = strtoull(f[2], NULL, 10) * 1000ull;
	l->ring = calloc(RING_SIZE, sizeof(struct held));
	l->late_hist = calloc(LATE_BUCKETS, sizeof(uint64_t));
	if (!l->ring || !l->late_hist)
		dcc_die("calloc");
	home = dcc_enter_netns(f[0]);
	l->h = nfq_open();
	if (!l->h)
		dcc_die("nfq_open");
	l->qh = nfq_create_queue(l->h, (uint16_t)atoi(f[1]), on_packet, l);
	if (!l->qh)
		dcc_die("nfq_create_queue");
	if (nfq_set_mode(l->qh, NFQNL_COPY_META, 0) < 0)
		dcc_die("nfq_set_mode");
	if (nfq_set_queue_maxlen(l->qh, QUEUE_MAXLEN) < 0)
		dcc_die("nfq_set_queue_maxlen");
	l->fd = nfq_fd(l->h);
	nfnl_rcvbufsiz(nfq_nfnlh(l->h), 16 * 1024 * 1024);
	/* A burst that overflows the socket buffer loses those packets (as a drop); do not fail on it. */
	setsockopt(l->fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof(one));
	dcc_leave_netns(home);
}

int main(int argc, char **argv)
{
	static char buf[65536] __attribute__((aligned));
	struct epoll_event ev, events[32];
	int ep, tfd;

	if (argc < 2 || argc - 1 > MAX_QUEUES) {
		fprintf(stderr, "usage: dcc-delay NETNS:QUEUE:DELAY_US [...] (at most %d)\n", MAX_QUEUES);
		return 2;
	}
	dcc_die_with_parent();
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	/* The delay is only as accurate as this process's wake-ups: on a busy machine a normal process can
	 * wait milliseconds for a CPU, which the flows would see as queueing. Real-time priority puts it
	 * first; it blocks in epoll_wait between packets, so it cannot starve the machine. */
	{
		struct sched_param sp = { .sched_priority = 50 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
			fprintf(stderr, "dcc-delay: no real-time priority (%s); delays may jitter\n", strerror(errno));
	}
	/* Timer wake-ups within a microsecond instead of the default 50 us slack. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	ep = epoll_create1(EPOLL_CLOEXEC);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (ep < 0 || tfd < 0)
		dcc_die("epoll/timerfd");
	ev = (struct epoll_event){ .events = EPOLLIN, .data.u32 = MAX_QUEUES };
	epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
	for (int i = 1; i < argc; i++) {
		bind_line(&lines[n_lines], argv[i]);
		ev = (struct epoll_event){ .events = EPOLLIN, .data.u32 = (uint32_t)n_lines };
		if (epoll_ctl(ep, EPOLL_CTL_ADD, lines[n_lines].fd, &ev) < 0)
			dcc_die("epoll_ctl");
		n_lines++;
	}
	printf("ready\n");
	fflush(stdout);

	while (!stop) {
		int n = epoll_wait(ep, events, 32, 200);
		uint64_t next;

		if (n < 0 && errno != EINTR)
			dcc_die("epoll_wait");
		for (int i = 0; i < n; i++) {
			uint32_t k = events[i].data.u32;

			if (k == MAX_QUEUES) {
				uint64_t expirations;

				while (read(tfd, &expirations, sizeof(expirations)) > 0)
					;
				continue;
			}
			for (;;) {
				ssize_t r = recv(lines[k].fd, buf, sizeof(buf), MSG_DONTWAIT);

				if (r <= 0)
					break;
				nfq_handle_packet(lines[k].h, buf, (int)r);
			}
		}
		next = release_due(dcc_now_ns());
		if (next) {
			struct itimerspec its = { .it_value = dcc_timespec(next) };

			timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
		}
	}
	for (int i = 0; i < n_lines; i++) {
		struct line *l = &lines[i];

		printf("late %d %llu %llu %.1f %llu %llu %llu\n", i, (unsigned long long)l->packets,
		       (unsigned long long)l->overflows,
		       l->released ? (double)l->late_sum_ns / (double)l->released / 1e3 : 0.0,
		       (unsigned long long)late_quantile_us(l, 0.5), (unsigned long long)late_quantile_us(l, 0.99),
		       (unsigned long long)(l->late_max_ns / 1000));
		nfq_destroy_queue(lines[i].qh);
		nfq_close(lines[i].h);
	}
	return 0;
}
