/* Helpers shared by the emulation tools: entering a named network namespace (created by `ip netns add`)
 * for as long as it takes to open a socket there, and the monotonic clock in nanoseconds. A socket stays
 * in the namespace it was created in, so one process can serve several namespaces. */
#ifndef DCC_NSUTIL_H
#define DCC_NSUTIL_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t dcc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t dcc_min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline struct timespec dcc_timespec(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull), .tv_nsec = (long)(ns % 1000000000ull) };

	return ts;
}

static inline void dcc_die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(1);
}

/* The harness that started this tool may be killed without a chance to clean up: end with it. */
static inline void dcc_die_with_parent(void)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		exit(1);
}

/* Returns an fd of the namespace the process is in now, to come back to with dcc_leave_netns. */
static inline int dcc_enter_netns(const char *name)
{
	char path[512];
	int home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	int fd;

	if (home < 0)
		dcc_die("open /proc/self/ns/net");
	snprintf(path, sizeof(path), "/var/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		dcc_die(path);
	if (setns(fd, CLONE_NEWNET) < 0)
		dcc_die("setns");
	close(fd);
	return home;
}

static inline void dcc_leave_netns(int home)
{
	if (setns(home, CLONE_NEWNET) < 0)
		dcc_die("setns back");
	close(home);
}

/* Splits "a:b:c" in place into at most n fields; returns how many were found. */
static inline int dcc_split(char *s, char **fields, int n)
{
	int i = 0;

	while (i < n) {
		fields[i++] = s;
		s = strchr(s, ':');
		if (!s)
			break;
		*s++ = '\0';
	}
	return i;
}

#endif
