/* A kernel log, as klog.c cuts reports out of it: any bytes, fed in the
 * chunks the input's first byte chooses, every signature and kept text
 * bounded and a C string. */
#include "fuzz.h"
#include "klog.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct klog k;
	if (!size)
		return 0;
	size_t chunk = (size_t)data[0] % 64 + 1;
	klog_init(&k);
	for (size_t i = 1; i < size; i += chunk)
		klog_feed(&k, (const char *)data + i, size - i < chunk ? size - i : chunk);
	klog_end(&k);
	for (int i = 0; i < k.nsigs; i++)
		if (strlen(k.sigs[i].title) >= KLOG_SIG_MAX || strlen(k.sigs[i].first) >= KLOG_TEXT_MAX ||
		    !k.sigs[i].count)
			__builtin_trap();
	if (k.nsigs > KLOG_MAX_SIGS)
		__builtin_trap();
	return 0;
}
