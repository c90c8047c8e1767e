/* Text from outside (names, paths, reasons read back from a database) on
 * its way into JSON, CSV and HTML: each writer quotes what its format
 * needs quoted, whatever the bytes. */
#ifndef RMAPBENCH_ESCAPE_H
#define RMAPBENCH_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* The length of the valid UTF-8 sequence at s (1 for ASCII), 0 when the
 * bytes there are not one (a stray continuation, an overlong form, a
 * surrogate, past U+10FFFF, or cut short by the end of the string). */
size_t utf8_valid_len(const char *s);
/* "..." with \" \\ and \u00XX for control bytes, and U+FFFD for each byte
 * that is not valid UTF-8; null for NULL. */
void json_write_string(FILE *f, const char *s);
/* A number, or null when it is not finite (JSON has no inf or nan). */
void json_write_number(FILE *f, double v);
/* Google Benchmark writes a counter it cannot compute (a cv of zeros) as
 * NaN, which JSON has not: a copy of the JSON text with every NaN,
 * Infinity and -Infinity outside a string as null, NUL-terminated, its
 * length into *outlen; NULL when out of memory. The input is any bytes. */
char *json_nonfinite_to_null(const char *in, size_t len, size_t *outlen);
/* RFC 4180: quoted when it holds a comma, a quote, CR or LF; a field
 * that a spreadsheet would take for a formula (led by = + - @, a tab or
 * CR) is led by a ' and quoted. */
void csv_write_field(FILE *f, const char *s);
/* s for a terminal, into buf (cut to len at a whole sequence): control
 * bytes (C0, DEL, and UTF-8's C1 controls, which lead escape sequences)
 * and invalid UTF-8 as '?'. */
void term_safe_copy(char *buf, size_t len, const char *s);
/* < > & " as entities. */
void html_write_escaped(FILE *f, const char *s);

#endif
