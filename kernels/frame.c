#include "frame.h"

#include <zlib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t frame_crc32(const void *p, size_t n)
{
	/* zlib's crc32 is IEEE 802.3's, as the wire format says */
	uLong c = crc32(0L, Z_NULL, 0);
	const Bytef *b = p;
	while (n) {
		uInt chunk = n > 0x40000000u ? 0x40000000u : (uInt)n;
		c = crc32(c, b, chunk);
		b += chunk;
		n -= chunk;
	}
	return (uint32_t)c;
}

size_t frame_encode(char *buf, size_t len, unsigned seq, const char *payload)
{
	size_t pl = strlen(payload);
	if (pl > FRAME_MAX_PAYLOAD || memchr(payload, '\n', pl))
		return 0;
	int n = snprintf(buf, len, "@RB1 %u %zu %08x %s\n", seq, pl, (unsigned)frame_crc32(payload, pl), payload);
	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* One line (no newline, no CR): 1 frame, 0 not a frame, -1 a bad frame. */
static int decode_line(const char *line, size_t n, unsigned *seq, const char **payload, size_t *plen, char *why,
		       size_t wlen)
{
	if (n < 5 || memcmp(line, "@RB1 ", 5))
		return 0;
	char head[64];
	size_t hl = n < sizeof(head) - 1 ? n : sizeof(head) - 1;
	memcpy(head, line, hl);
	head[hl] = 0;
	unsigned s;
	size_t l;
	unsigned crc;
	int off = 0;
	if (sscanf(head, "@RB1 %u %zu %8x %n", &s, &l, &crc, &off) != 3 || off <= 0) {
		snprintf(why, wlen, "a garbled frame header: '%.40s'", head);
		return -1;
	}
	if (l > FRAME_MAX_PAYLOAD) {
		snprintf(why, wlen, "frame %u: %zu payload bytes announced, at most %d allowed", s, l, FRAME_MAX_PAYLOAD);
		return -1;
	}
	if ((size_t)off + l != n) {
		snprintf(why, wlen, "frame %u: %zu payload bytes announced, %zu arrived", s, l, n - (size_t)off);
		return -1;
	}
	if (frame_crc32(line + off, l) != crc) {
		snprintf(why, wlen, "frame %u: checksum mismatch", s);
		return -1;
	}
	*seq = s;
	*payload = line + off;
	*plen = l;
	return 1;
}

int frame_parse_stream(const char *data, size_t n, void (*each)(void *arg, const char *payload), void *arg,
		       char *status, size_t slen, char *why, size_t wlen)
{
	unsigned next = 0;
	int begun = 0;
	char payload[FRAME_MAX_PAYLOAD + 1];
	status[0] = 0;
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(data + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - data) : n, ll = end - i;
		const char *line = data + i;
		i = end + 1;
		while (ll && line[ll - 1] == '\r')
			ll--;
		while (ll && line[0] == '\r')
			line++, ll--;
		unsigned seq;
		const char *p;
		size_t pl;
		int r = decode_line(line, ll, &seq, &p, &pl, why, wlen);
		if (r == 0)
			continue;
		if (r < 0)
			return -1;
		if (!nl) {
			snprintf(why, wlen, "frame %u: cut off before its newline", seq);
			return -1;
		}
		if (seq != next) {
			snprintf(why, wlen, "frame %u arrived where %u was due", seq, next);
			return -1;
		}
		next++;
		memcpy(payload, p, pl);
		payload[pl] = 0;
		if (!begun) {
			if (strncmp(payload, "begin", 5) || (payload[5] && payload[5] != ' ')) {
				snprintf(why, wlen, "the stream does not open with 'begin'");
				return -1;
			}
			begun = 1;
			continue;
		}
		if (!strncmp(payload, "end ", 4)) {
			unsigned count;
			int off = 0;
			if (sscanf(payload + 4, "%u %n", &count, &off) != 1 || off <= 0 || !payload[4 + off]) {
				snprintf(why, wlen, "a malformed end frame: '%.60s'", payload);
				return -1;
			}
			if (count != seq + 1) {
				snprintf(why, wlen, "the end frame counts %u frames, %u arrived", count, seq + 1);
				return -1;
			}
			snprintf(status, slen, "%s", payload + 4 + off);
			return 0;
		}
		each(arg, payload);
	}
	snprintf(why, wlen, next ? "the stream stopped after %u frames with no end frame" : "no frames arrived", next);
	return -1;
}
