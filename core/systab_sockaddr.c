/* systab_sockaddr.c — a socket address a call reads (connect, bind,
 * sendto), printed as perf trace prints it:
 * { .family: INET, port: 80, addr: 127.0.0.1 }. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "systab.h"
#include "systab_priv.h"

size_t systab_format_sockaddr(char *buf, size_t n, const void *sa, size_t len)
{
	struct systab_out o = { buf, n, 0 };
	union {
		struct sockaddr sa;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
		struct sockaddr_un un;
	} u;
	char addr[INET6_ADDRSTRLEN];

	if (!n || len < sizeof(sa_family_t))
		return 0;
	memset(&u, 0, sizeof(u));
	memcpy(&u, sa, len < sizeof(u) ? len : sizeof(u));
	buf[0] = 0;
	systab_put(&o, "{ .family: ");
	systab_put_arg(&o, SYSTAB_A_FAMILY, 32, u.sa.sa_family, NULL);
	/* (what a shorter address has the kernel refuses: EINVAL) */
	if (u.sa.sa_family == AF_INET && len >= sizeof(u.in))
		systab_put(&o, ", port: %u, addr: %s", (unsigned)ntohs(u.in.sin_port),
			   inet_ntop(AF_INET, &u.in.sin_addr, addr, sizeof(addr)));
	else if (u.sa.sa_family == AF_INET6 && len >= sizeof(u.in6))
		systab_put(&o, ", port: %u, addr: %s", (unsigned)ntohs(u.in6.sin6_port),
			   inet_ntop(AF_INET6, &u.in6.sin6_addr, addr, sizeof(addr)));
	else if (u.sa.sa_family == AF_UNIX && len > sizeof(sa_family_t)) {
		/* a path, or an abstract name (a leading NUL) shown after
		 * '@' as ss and strace show it; not NUL-terminated at len */
		size_t plen = len - sizeof(sa_family_t), k = 0;
		if (plen > sizeof(u.un.sun_path))
			plen = sizeof(u.un.sun_path);
		systab_put(&o, ", path: ");
		if (!u.un.sun_path[0]) {
			systab_put(&o, "@");
			k = 1;
		}
		for (; k < plen && u.un.sun_path[k]; k++) {
			unsigned char ch = (unsigned char)u.un.sun_path[k];
			if (ch < 0x20 || ch == 0x7f)
				systab_put(&o, "\\%03o", ch);
			else
				systab_put(&o, "%c", ch);
		}
	}
	systab_put(&o, " }");
	return o.len;
}
