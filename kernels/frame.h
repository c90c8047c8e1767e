/* The results channel between the guest agent and the host: one frame a
 * line on a serial port that carries nothing else,
 *
 *   @RB1 SEQ LEN CRC32 PAYLOAD\n
 *
 * SEQ counts from 0, LEN is the payload's length in bytes, CRC32 (IEEE,
 * 8 hex digits) is over the payload, and the payload has no newline. The
 * first payload is "begin ...", the last "end COUNT STATUS": a stream is
 * valid only whole, so a guest killed mid-way, a lost or garbled line, or
 * a missing end cannot pass for a result. Carriage returns (a tty's
 * ONLCR) and lines that are not frames are ignored. */
#ifndef RMAPBENCH_FRAME_H
#define RMAPBENCH_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_MAX_PAYLOAD 1024

uint32_t frame_crc32(const void *p, size_t n);
/* Writes the frame for payload into buf (with the newline); returns its
 * length, or 0 when it does not fit or the payload has a newline. */
size_t frame_encode(char *buf, size_t len, unsigned seq, const char *payload);

/* Calls each(arg, payload) for every frame between begin and end, in
 * order. Returns 0 for a valid, complete stream, with its end status
 * ("ok" or the agent's reason) in status; -1 with why otherwise (the
 * frames before the fault have been passed to each). */
int frame_parse_stream(const char *data, size_t n, void (*each)(void *arg, const char *payload), void *arg,
		       char *status, size_t slen, char *why, size_t wlen);

#endif
