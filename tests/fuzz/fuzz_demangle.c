/* fuzz_demangle.c — libFuzzer harness for the symbol-name demangler
 * (core/sym_demangle.c, core/sym_rust.c): C++ names by the C++ runtime,
 * Rust's legacy and v0 names by vpmu's own parser.
 *
 * The input is a name; it is tried as given and with each of the
 * prefixes "_R", "_ZN" and "_Z" put before it, so that most inputs reach
 * the parsers.  The harness insists on what the interface promises: a
 * demangled name, when there is one, is not empty, has no control
 * characters the name did not have, and is the same text every time.
 * Any breach aborts, which libFuzzer reports as a crash.
 *
 * fuzz-sources: core/sym_demangle.c core/sym_rust.c
 * fuzz-libs: -lstdc++
 * fuzz-options: -max_len=256
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sym.h"

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static void check(const char *name)
{
	char *d = sym_demangle(name), *again;

	if (!d)
		return;
	if (!*d || (has_control(d) && !has_control(name)))
		abort();
	again = sym_demangle(name);
	if (!again || strcmp(again, d))
		abort(); /* not the same twice */
	free(again);
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const prefixes[] = { "", "_R", "_ZN", "_Z" };
	char *buf = malloc(size + 4);

	if (!buf)
		return 0;
	for (size_t k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++) {
		size_t p = strlen(prefixes[k]);
		memcpy(buf, prefixes[k], p);
		memcpy(buf + p, data, size);
		buf[p + size] = 0;
		check(buf);
	}
	free(buf);
	return 0;
}
