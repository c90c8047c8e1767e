/* ucontext coroutines, told to ASan when it is on (a stack switch it does
 * not know of looks like stack corruption to it). */
#include "coro.h"

#include <stdint.h>
#include <stdlib.h>
#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#define CORO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_ASAN 1
#endif
#endif
#ifdef CORO_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

struct coro {
	ucontext_t ctx, caller;
	void (*fn)(void *);
	void *arg;
	void *stack;
	size_t size;
	bool done;
#ifdef CORO_ASAN
	const void *caller_bottom;
	size_t caller_size;
#endif
};

static struct coro *running;

static void trampoline(unsigned hi, unsigned lo)
{
	struct coro *co = (struct coro *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
#ifdef CORO_ASAN
	__sanitizer_finish_switch_fiber(NULL, &co->caller_bottom, &co->caller_size);
#endif
	co->fn(co->arg);
	co->done = true;
#ifdef CORO_ASAN
	__sanitizer_start_switch_fiber(NULL, co->caller_bottom, co->caller_size); /* NULL: this stack dies */
#endif
	/* uc_link returns to the caller */
}

/* getcontext returns twice: kept out of coro_create, whose locals it
 * would otherwise put at risk (-Wclobbered). */
__attribute__((noinline)) static int context_init(ucontext_t *c)
{
	return getcontext(c);
}

struct coro *coro_create(void (*fn)(void *), void *arg, void *stack, size_t stack_size)
{
	struct coro *co = calloc(1, sizeof(*co));
	if (!co)
		return NULL;
	if (context_init(&co->ctx) < 0) {
		free(co);
		return NULL;
	}
	co->stack = stack;
	co->size = stack_size;
	co->fn = fn;
	co->arg = arg;
	co->ctx.uc_stack.ss_sp = co->stack;
	co->ctx.uc_stack.ss_size = stack_size;
	co->ctx.uc_link = &co->caller;
	uintptr_t p = (uintptr_t)co;
	makecontext(&co->ctx, (void (*)(void))trampoline, 2, (unsigned)(p >> 32), (unsigned)(p & 0xffffffffu));
	return co;
}

bool coro_resume(struct coro *co)
{
	if (co->done)
		return false;
	struct coro *prev = running;
	running = co;
#ifdef CORO_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, co->stack, co->size);
#endif
	swapcontext(&co->caller, &co->ctx);
#ifdef CORO_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
	running = prev;
	return !co->done;
}

void coro_yield(void)
{
	struct coro *co = running;
#ifdef CORO_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, co->caller_bottom, co->caller_size);
#endif
	swapcontext(&co->ctx, &co->caller);
#ifdef CORO_ASAN
	__sanitizer_finish_switch_fiber(fake, &co->caller_bottom, &co->caller_size);
#endif
}

void coro_free(struct coro *co)
{
	free(co);
}
