/* session_chan.h — the sample channel between the guest processes of a
 * recording session and the parent that writes the sample file: one
 * AF_UNIX SOCK_SEQPACKET pair, so each message is one datagram (no
 * interleaving between processes, nothing half-read) and what a process
 * sent before it died stays queued for the reader. */
#ifndef VPMU_SESSION_CHAN_H
#define VPMU_SESSION_CHAN_H

#include <stddef.h>

/* Both ends moved above the guest's fd range: the read end close-on-exec,
 * the write end inherited by every guest process.  0, or -1 with errno. */
int session_chan_open(int *rfd, int *wfd);

/* Wait up to timeout_ms for messages, then hand every queued one to fn.
 * Returns 1 when every writer is gone (end of channel), else 0. */
int session_chan_drain(int rfd, int timeout_ms, void (*fn)(void *arg, const void *msg, size_t len),
		       void *arg);

#endif
