#include "cpio.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void pad4(struct cpio *c)
{
	long pos = ftell(c->f);
	while (pos >= 0 && pos % 4) {
		fputc(0, c->f);
		pos++;
	}
}

static void entry(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len, unsigned rmaj,
		  unsigned rmin)
{
	size_t nl = strlen(name) + 1;
	fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08zX%08X", c->ino++, mode, 0u, 0u,
		S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned)len, 0u, 0u, rmaj, rmin, nl, 0u);
	fwrite(name, 1, nl, c->f);
	pad4(c);
	if (len && fwrite(data, 1, len, c->f) != len)
		c->err = 1;
	pad4(c);
	if (ferror(c->f))
		c->err = 1;
}

int cpio_open(struct cpio *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->ino = 1;
	c->f = rb_create_stream(path); /* never through a planted link */
	return c->f ? 0 : -1;
}

void cpio_dir(struct cpio *c, const char *name)
{
	entry(c, name, S_IFDIR | 0755, NULL, 0, 0, 0);
}

void cpio_chardev(struct cpio *c, const char *name, unsigned major, unsigned minor)
{
	entry(c, name, S_IFCHR | 0600, NULL, 0, major, minor);
}

void cpio_data(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len)
{
	entry(c, name, S_IFREG | mode, data, len, 0, 0);
}

int cpio_file(struct cpio *c, const char *name, unsigned mode, const char *src)
{
	/* the paths come from a kernel cache's modules= list: a regular file
	 * of a sane size only, never a device or a FIFO read without end */
	size_t len;
	char *buf = rb_read_regular_file_max(src, CPIO_FILE_MAX, &len);
	if (!buf)
		return -1;
	cpio_data(c, name, mode, buf, len);
	free(buf);
	return 0;
}

int cpio_close(struct cpio *c)
{
	entry(c, "TRAILER!!!", 0, NULL, 0, 0, 0);
	if (fclose(c->f) != 0)
		c->err = 1;
	c->f = NULL;
	return c->err ? -1 : 0;
}
