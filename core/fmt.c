/* fmt.c — small text helpers the commands share. */
#include <stdio.h>
#include <string.h>

#include "fmt.h"

const char *fmt_count(uint64_t v, char *buf, size_t n)
{
	char digits[24];
	size_t len, out = 0;

	len = (size_t)snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	if (n == 0)
		return buf;
	for (size_t i = 0; i < len && out + 1 < n; i++) {
		if (i && (len - i) % 3 == 0) {
			buf[out++] = ',';
			if (out + 1 >= n)
				break;
		}
		buf[out++] = digits[i];
	}
	buf[out] = 0;
	return buf;
}

unsigned fmt_distance(const char *a, const char *b)
{
	enum { MAX = 64 };
	unsigned d[MAX][MAX];
	size_t la = strlen(a), lb = strlen(b);

	if (la >= MAX || lb >= MAX)
		return ~0u;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned best = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *fmt_argv(char *const *argv, char *buf, size_t n)
{
	size_t out = 0;

	if (n == 0)
		return buf;
	buf[0] = 0;
	for (int i = 0; argv[i]; i++) {
		size_t len = strlen(argv[i]);
		size_t need = len + (i ? 1 : 0);

		if (out + need + 1 > n) {
			if (n > 4) {
				size_t at = out + 4 < n ? out : n - 4;

				memcpy(buf + at, "...", 4);
			}
			return buf;
		}
		if (i)
			buf[out++] = ' ';
		memcpy(buf + out, argv[i], len + 1);
		out += len;
	}
	return buf;
}

void fmt_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}
