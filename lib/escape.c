#include "escape.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void json_write_string(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void csv_write_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
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
