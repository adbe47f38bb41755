/* fuzz_params.c — libFuzzer harness for the --set KEY=VAL parser
 * (uarch_params_set) and the consistency check behind it.
 *
 * Each input is split at its first byte: that byte picks a built-in
 * machine, the rest is the spec.  The harness applies the spec to a copy
 * of the machine and then insists on what the interface promises:
 *   - failure leaves the machine exactly as it was, with a one-line
 *     message that fits the buffer;
 *   - success leaves a machine that uarch_params_check accepts, and whose
 *     uarch_params_each listing, applied to the original machine, gives
 *     the same machine again.
 * Any breach aborts, which libFuzzer reports as a crash.
 *
 * Build and run (from the top of the tree; Debian: apt-get install clang):
 *
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *       -o /tmp/fuzz_params tests/fuzz/fuzz_params.c \
 *       emu/uarch/params.c emu/uarch/params_check.c emu/uarch/machine_*.c
 *   mkdir -p /tmp/fuzz_params.corpus
 *   /tmp/fuzz_params -max_total_time=60 -max_len=512 /tmp/fuzz_params.corpus
 *
 * A seed corpus helps it reach the value parsers quickly, e.g.
 *   printf 'pl1d.size=32K,l1d.policy=lru' > /tmp/fuzz_params.corpus/a
 *   printf 'abp.kind=gshare,bp.ghist=12,l2.line=0x80' > /tmp/fuzz_params.corpus/b
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/uarch/params.h"

struct listing {
	char buf[16384];
	size_t len;
};

static void collect(void *arg, const char *key, const char *value)
{
	struct listing *l = arg;
	size_t kl = strlen(key), vl = strlen(value);

	if (l->len + kl + vl + 3 > sizeof(l->buf))
		abort();
	if (l->len)
		l->buf[l->len++] = ',';
	memcpy(l->buf + l->len, key, kl);
	l->len += kl;
	l->buf[l->len++] = '=';
	memcpy(l->buf + l->len, value, vl);
	l->len += vl;
	l->buf[l->len] = 0;
}

static void list(const struct uarch_machine *m, struct listing *l)
{
	l->len = 0;
	l->buf[0] = 0;
	uarch_params_each(m, collect, l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nmach = 0;
	struct uarch_machine m, before, again;
	static struct listing a, b;
	char err[160], *spec;

	while (uarch_machines[nmach])
		nmach++;
	if (size < 1)
		return 0;
	const struct uarch_machine *base = uarch_machines[data[0] % nmach];
	spec = malloc(size);
	if (!spec)
		return 0;
	memcpy(spec, data + 1, size - 1);
	spec[size - 1] = 0; /* the parser takes a C string: stop at any NUL */

	memset(&m, 0, sizeof(m));
	memcpy(&m, base, sizeof(m));
	before = m;
	memset(err, 'x', sizeof(err));
	if (uarch_params_set(&m, spec, err, sizeof(err)) < 0) {
		if (memcmp(&m, &before, sizeof(m)) != 0)
			abort(); /* a failed set changed the machine */
		if (!memchr(err, 0, sizeof(err)) || !err[0] || strchr(err, '\n'))
			abort(); /* the message is missing, unterminated or not one line */
	} else {
		if (uarch_params_check(&m, err, sizeof(err)) != 0)
			abort(); /* accepted a machine its own check refuses */
		list(&m, &a);
		memset(&again, 0, sizeof(again));
		memcpy(&again, base, sizeof(again));
		if (uarch_params_set(&again, a.buf, err, sizeof(err)) != 0)
			abort(); /* the listing does not parse back */
		list(&again, &b);
		if (strcmp(a.buf, b.buf) != 0)
			abort(); /* the round trip changed a value */
	}
	free(spec);
	return 0;
}
