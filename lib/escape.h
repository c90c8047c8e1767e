/* Text from outside (names, paths, reasons read back from a database) on
 * its way into JSON, CSV and HTML: each writer quotes what its format
 * needs quoted, whatever the bytes. */
#ifndef RMAPBENCH_ESCAPE_H
#define RMAPBENCH_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* "..." with \" \\ and \u00XX for control bytes; null for NULL. */
void json_write_string(FILE *f, const char *s);
/* Google Benchmark writes a counter it cannot compute (a cv of zeros) as
 * NaN, which JSON has not: a copy of the JSON text with every NaN,
 * Infinity and -Infinity outside a string as null, NUL-terminated, its
 * length into *outlen; NULL when out of memory. The input is any bytes. */
char *json_nonfinite_to_null(const char *in, size_t len, size_t *outlen);
/* RFC 4180: quoted when it holds a comma, a quote, CR or LF. */
void csv_write_field(FILE *f, const char *s);
/* < > & " as entities. */
void html_write_escaped(FILE *f, const char *s);

#endif
