/* dcc-flow: one bulk TCP flow of an emulated scenario, and its measurements.
 *
 *   dcc-flow server ADDR PORT
 *       listens, prints "ready", accepts one connection, reads and discards until EOF, prints
 *       "received BYTES" and exits.
 *   dcc-flow client SRC DST PORT CC T0_NS START_US STOP_US INTERVAL_US
 *       at T0 + START (CLOCK_MONOTONIC, shared by every process of the run) connects from SRC to DST with
 *       congestion control CC, sends as fast as the window allows until T0 + STOP, and at every
 *       T0 + k·INTERVAL in between prints the kernel's view of the connection (TCP_INFO, what `ss -ti`
 *       shows) as one line:
 *         s,t_us,cwnd,rtt_us,min_rtt_us,bytes_acked,bytes_retrans,total_retrans,unacked,ssthresh,mss
 *       then "timeouts N" (the namespace's TCPTimeouts counter: one flow per sending node makes it the
 *       flow's own) and "done".
 * Exit status 3: the congestion control could not be selected.
 */
#include "nsutil.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/tcp.h> /* the full struct tcp_info; glibc's copy is older */
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>

static struct sockaddr_in addr_of(const char *ip, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };

	if (inet_pton(AF_INET, ip, &a.sin_addr) != 1) {
		fprintf(stderr, "dcc-flow: bad address %s\n", ip);
		exit(2);
	}
	return a;
}

static int server(const char *ip, int port)
{
	static char buf[1 << 18];
	struct sockaddr_in a = addr_of(ip, port);
	int one = 1, s = socket(AF_INET, SOCK_STREAM, 0), c;
	unsigned long long total = 0;
	ssize_t r;

	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 4) < 0)
		dcc_die("bind/listen");
	printf("ready\n");
	fflush(stdout);
	c = accept(s, NULL, NULL);
	if (c < 0)
		dcc_die("accept");
	while ((r = read(c, buf, sizeof(buf))) > 0)
		total += (unsigned long long)r;
	printf("received %llu\n", total);
	return 0;
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = dcc_timespec(t_ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void sample(int s, uint64_t t_us)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(s, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		return;
	printf("s,%llu,%u,%u,%u,%llu,%llu,%u,%u,%u,%u\n", (unsigned long long)t_us, ti.tcpi_snd_cwnd,
	       ti.tcpi_rtt, ti.tcpi_min_rtt, (unsigned long long)ti.tcpi_bytes_acked,
	       (unsigned long long)ti.tcpi_bytes_retrans, ti.tcpi_total_retrans, ti.tcpi_unacked,
	       ti.tcpi_snd_ssthresh, ti.tcpi_snd_mss);
}

/* The namespace's TcpExt TCPTimeouts: /proc/net/netstat has a header line and a value line per group. */
static long long timeouts(void)
{
	char head[8192], vals[8192];
	FILE *f = fopen("/proc/net/netstat", "r");
	long long result = -1;

	if (!f)
		return -1;
	while (fgets(head, sizeof(head), f) && fgets(vals, sizeof(vals), f)) {
		char *hs, *vs, *h = strtok_r(head, " \n", &hs), *v = strtok_r(vals, " \n", &vs);

		if (!h || strcmp(h, "TcpExt:") != 0)
			continue;
		while ((h = strtok_r(NULL, " \n", &hs)) && (v = strtok_r(NULL, " \n", &vs)))
			if (strcmp(h, "TCPTimeouts") == 0)
				result = atoll(v);
	}
	fclose(f);
	return result;
}

static int client(char **argv)
{
	static char buf[1 << 16];
	struct sockaddr_in src = addr_of(argv[0], 0), dst = addr_of(argv[1], atoi(argv[2]));
	const char *cc = argv[3];
	uint64_t t0 = strtoull(argv[4], NULL, 10);
	uint64_t start = t0 + strtoull(argv[5], NULL, 10) * 1000ull;
	uint64_t end = t0 + strtoull(argv[6], NULL, 10) * 1000ull;
	uint64_t interval = strtoull(argv[7], NULL, 10) * 1000ull;
	uint64_t next;
	int s = -1;

	signal(SIGPIPE, SIG_IGN);
	sleep_until(start);
	/* The server may still be starting in its namespace: retry refused connections for a second. */
	for (int attempt = 0; attempt < 100; attempt++) {
		s = socket(AF_INET, SOCK_STREAM, 0);
		if (setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc)) < 0) {
			fprintf(stderr, "dcc-flow: congestion control %s: %s\n", cc, strerror(errno));
			return 3;
		}
		if (bind(s, (struct sockaddr *)&src, sizeof(src)) < 0)
			dcc_die("bind");
		if (connect(s, (struct sockaddr *)&dst, sizeof(dst)) == 0)
			break;
		if (errno != ECONNREFUSED)
			dcc_die("connect");
		close(s);
		s = -1;
		usleep(10000);
	}
	if (s < 0)
		dcc_die("connect");
	fcntl(s, F_SETFL, O_NONBLOCK);
	next = t0 + ((dcc_now_ns() - t0) / interval + 1) * interval;
	for (;;) {
		uint64_t now = dcc_now_ns();
		struct pollfd p = { .fd = s, .events = POLLOUT };

		if (now >= next) {
			sample(s, (next - t0) / 1000);
			next += interval;
			continue;
		}
		if (now >= end)
			break;
		if (poll(&p, 1, (int)((dcc_min_u64(next, end) - now) / 1000000ull) + 1) > 0 && (p.revents & POLLOUT)) {
			while (write(s, buf, sizeof(buf)) > 0)
				;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				dcc_die("write");
		}
	}
	printf("timeouts %lld\n", timeouts());
	printf("done\n");
	fflush(stdout);
	{
		/* The flow ends at STOP, as in the simulator: drop what is still buffered (RST). */
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };

		setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	}
	close(s);
	return 0;
}

int main(int argc, char **argv)
{
	dcc_die_with_parent();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && strcmp(argv[1], "server") == 0)
		return server(argv[2], atoi(argv[3]));
	if (argc == 10 && strcmp(argv[1], "client") == 0)
		return client(argv + 2);
	fprintf(stderr, "usage: dcc-flow server ADDR PORT | dcc-flow client SRC DST PORT CC T0_NS START_US "
			"STOP_US INTERVAL_US\n");
	return 2;
}
