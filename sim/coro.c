/* Coroutines: ucontext makes each stack and enters it once; every switch
 * after that is _setjmp/_longjmp. swapcontext saves and restores the
 * signal mask, a system call each way: at 30,000 users that was 4 million
 * rt_sigprocmask calls a point and two thirds of the simulator's time.
 * Nothing here touches signals, so the mask never needs switching. ASan
 * is told of each switch (one it does not know of looks like stack
 * corruption to it). */

/* _FORTIFY_SOURCE turns _longjmp into __longjmp_chk, which refuses a jump
 * to a frame below the current one unless it is on the signal stack: a
 * jump to another coroutine's stack is one. This file only switches. */
#undef _FORTIFY_SOURCE

#include "coro.h"

#include <setjmp.h>
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
	ucontext_t first;    /* the way in, used once */
	jmp_buf self, caller; /* where each side stopped */
	void (*fn)(void *);
	void *arg;
	void *stack;
	size_t size;
	bool started, done;
	struct coro *prev; /* the coroutine running when this one was resumed */
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
	_longjmp(co->caller, 1); /* never returns: uc_link is not used */
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
	if (context_init(&co->first) < 0) {
		free(co);
		return NULL;
	}
	co->stack = stack;
	co->size = stack_size;
	co->fn = fn;
	co->arg = arg;
	co->first.uc_stack.ss_sp = co->stack;
	co->first.uc_stack.ss_size = stack_size;
	co->first.uc_link = NULL;
	uintptr_t p = (uintptr_t)co;
	makecontext(&co->first, (void (*)(void))trampoline, 2, (unsigned)(p >> 32), (unsigned)(p & 0xffffffffu));
	return co;
}

/* Kept apart so that its caller's locals need not survive a _setjmp. */
__attribute__((noinline)) static void switch_in(struct coro *co)
{
	if (_setjmp(co->caller))
		return; /* it yielded or ended */
	if (!co->started) {
		co->started = true;
		setcontext(&co->first);
	}
	_longjmp(co->self, 1);
}

bool coro_resume(struct coro *co)
{
	if (co->done)
		return false;
	co->prev = running;
	running = co;
#ifdef CORO_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, co->stack, co->size);
#endif
	switch_in(co);
#ifdef CORO_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
	running = co->prev;
	return !co->done;
}

__attribute__((noinline)) static void switch_out(struct coro *co)
{
	if (!_setjmp(co->self))
		_longjmp(co->caller, 1);
}

void coro_yield(void)
{
	struct coro *co = running;
#ifdef CORO_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, co->caller_bottom, co->caller_size);
#endif
	switch_out(co);
#ifdef CORO_ASAN
	__sanitizer_finish_switch_fiber(fake, &co->caller_bottom, &co->caller_size);
#endif
}

void coro_free(struct coro *co)
{
	free(co);
}
