#include "escape.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

size_t utf8_valid_len(const char *p)
{
	const unsigned char *s = (const unsigned char *)p;
	if (s[0] < 0x80)
		return 1;
	size_t n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	if (!n)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80) /* a NUL here too: cut short */
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) || /* overlong; a surrogate */
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))   /* overlong; past U+10FFFF */
		return 0;
	return n;
}

void json_write_string(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = utf8_valid_len(s);
		if (!n) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

void json_write_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

void term_safe_copy(char *buf, size_t len, const char *s)
{
	size_t o = 0;
	if (!len)
		return;
	while (s && *s && o + 1 < len) {
		size_t n = utf8_valid_len(s);
		unsigned char c = (unsigned char)*s;
		/* C1 controls are U+0080 to U+009F: 0xc2 0x80 to 0xc2 0x9f */
		if (!n || c < 0x20 || c == 0x7f || (n == 2 && c == 0xc2 && (unsigned char)s[1] < 0xa0)) {
			buf[o++] = '?';
			s += n ? n : 1;
			continue;
		}
		if (o + n >= len)
			break;
		memcpy(buf + o, s, n);
		o += n;
		s += n;
	}
	buf[o] = 0;
}

void csv_write_field(FILE *f, const char *s)
{
	if (!s)
		return;
	bool formula = strchr("=+-@\t\r", s[0]) && s[0];
	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void html_write_escaped(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

char *json_nonfinite_to_null(const char *in, size_t len, size_t *outlen)
{
	/* "NaN" is the one token shorter than "null": room for a null each */
	size_t cap = len + len / 3 + 1, n = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	static const char *const words[] = { "-Infinity", "Infinity", "NaN" };
	bool in_string = false;
	for (size_t i = 0; i < len;) {
		if (in_string) {
			if (in[i] == '\\' && i + 1 < len)
				out[n++] = in[i++];
			else if (in[i] == '"')
				in_string = false;
			out[n++] = in[i++];
			continue;
		}
		if (in[i] == '"')
			in_string = true;
		size_t w = 0;
		for (size_t k = 0; k < 3 && !w; k++) {
			size_t wl = strlen(words[k]);
			/* a token, not the middle of one: what precedes cannot be
			 * part of a name or number outside a string */
			bool starts = i == 0 || !isalnum((unsigned char)in[i - 1]);
			if (starts && len - i >= wl && !memcmp(in + i, words[k], wl))
				w = wl;
		}
		if (w) {
			memcpy(out + n, "null", 4);
			n += 4;
			i += w;
		} else {
			out[n++] = in[i++];
		}
	}
	out[n] = 0;
	*outlen = n;
	return out;
}
