/* Text from outside (names, paths, reasons read back from a database) on
 * its way into JSON, CSV and HTML: each writer quotes what its format
 * needs quoted, whatever the bytes. */
#ifndef RMAPBENCH_ESCAPE_H
#define RMAPBENCH_ESCAPE_H

#include <stdio.h>

/* "..." with \" \\ and \u00XX for control bytes; null for NULL. */
void json_write_string(FILE *f, const char *s);
/* RFC 4180: quoted when it holds a comma, a quote, CR or LF. */
void csv_write_field(FILE *f, const char *s);
/* < > & " as entities. */
void html_write_escaped(FILE *f, const char *s);

#endif
