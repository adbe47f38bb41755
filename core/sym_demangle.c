/* sym_demangle.c — C++ symbol names as people write them, by the C++
 * runtime's demangler (the Itanium C++ ABI's __cxa_demangle, which perf
 * uses too), with a symbol version or "@plt" suffix kept as it was. */
#include <stdlib.h>
#include <string.h>

#include "sym.h"

/* libstdc++ (cxxabi.h); declared extern "C" there. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *sym_demangle(const char *name)
{
	const char *at;
	char *base, *plain, *out;
	size_t n, sn;
	int status = 0;

	/* mangled names begin _Z (Itanium C++ ABI, 5.1.2); "main" stays */
	if (!name || strncmp(name, "_Z", 2))
		return NULL;
	at = strchr(name, '@'); /* name@plt, name@@GLIBCXX_3.4 */
	n = at ? (size_t)(at - name) : strlen(name);
	base = strndup(name, n);
	if (!base)
		return NULL;
	plain = __cxa_demangle(base, NULL, NULL, &status);
	free(base);
	if (!plain || status)
		return free(plain), NULL;
	if (!at)
		return plain;
	sn = strlen(at);
	out = realloc(plain, strlen(plain) + sn + 1);
	if (!out)
		return free(plain), NULL;
	strcat(out, at);
	return out;
}
