/* e2e_connect.c — socket addresses for vpmu trace to print: a UDP socket
 * bound to and connected to loopback addresses (no packet is sent), a
 * local socket's connect to a path that is not there. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(9) };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), fd6, ufd;

	inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
	if (fd < 0 || bind(fd, (struct sockaddr *)&in, sizeof(in)) < 0)
		return perror("bind"), 1;
	in.sin_port = htons(9);
	if (connect(fd, (struct sockaddr *)&in, sizeof(in)) < 0)
		return perror("connect"), 1;
	close(fd);
	in6.sin6_addr = in6addr_loopback;
	fd6 = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd6 >= 0) /* (IPv6 may be off) */
		(void)!connect(fd6, (struct sockaddr *)&in6, sizeof(in6));
	strcpy(un.sun_path, "/nonexistent/vpmu.sock");
	ufd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (ufd < 0 || connect(ufd, (struct sockaddr *)&un, sizeof(un)) == 0)
		return 1;
	puts("connected");
	return 0;
}
