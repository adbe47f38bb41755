/* sym_demangle.c — C++ and Rust symbol names as people write them: C++
 * names by the C++ runtime's demangler (the Itanium C++ ABI's
 * __cxa_demangle, which perf uses too), Rust's by sym_rust.c; a symbol
 * version or "@plt" suffix kept as it was. */
#include <stdlib.h>
#include <string.h>

#include "sym.h"

/* libstdc++ (cxxabi.h); declared extern "C" there. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

int sym_is_mangled(const char *name)
{
	/* mangled names begin _Z (Itanium C++ ABI, 5.1.2; Rust's legacy
	 * names too) or _R (Rust's v0); "main" stays */
	return name && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}

char *sym_demangle(const char *name)
{
	const char *at;
	char *base, *plain, *out;
	size_t n, sn;
	int status = 0;

	if (!sym_is_mangled(name))
		return NULL;
	at = strchr(name, '@'); /* name@plt, name@@GLIBCXX_3.4 */
	n = at ? (size_t)(at - name) : strlen(name);
	base = strndup(name, n);
	if (!base)
		return NULL;
	plain = sym_rust_demangle(base);
	if (!plain && base[1] == 'Z')
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
