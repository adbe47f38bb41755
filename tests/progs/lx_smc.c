/* Guest program: self-modifying code.  Code written into an RWX mapping
 * is called, rewritten in place and called again; code written into an RW
 * mapping is made RX with mprotect, called, made RW again, rewritten and
 * called again. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef int (*fn_t)(int);

/* mov $imm32, %eax ; add %edi, %eax ; ret */
static void emit(uint8_t *p, int32_t imm)
{
	p[0] = 0xb8;
	memcpy(p + 1, &imm, 4);
	p[5] = 0x01;
	p[6] = 0xf8;
	p[7] = 0xc3;
}

int main(void)
{
	uint8_t *rwx = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *rw = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fn_t f;
	int sum = 0;

	if (rwx == MAP_FAILED || rw == MAP_FAILED)
		return 1;
	f = (fn_t)rwx;
	for (int i = 0; i < 5; i++) {
		emit(rwx, 100 * i);
		int r = f(i);
		printf("rwx round %d: %d\n", i, r);
		sum += r;
	}
	/* the data on the same page as the code changes too: no effect on it */
	rwx[100] = 1;
	printf("rwx again: %d\n", f(1));

	emit(rw, 7);
	mprotect(rw, 4096, PROT_READ | PROT_EXEC);
	f = (fn_t)rw;
	printf("rx: %d\n", f(1));
	mprotect(rw, 4096, PROT_READ | PROT_WRITE);
	emit(rw, 70);
	mprotect(rw, 4096, PROT_READ | PROT_EXEC);
	printf("rx rewritten: %d\n", f(1));

	/* unmap and map again at the same place with other code */
	munmap(rw, 4096);
	uint8_t *again = mmap(rw, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	emit(again, 700);
	printf("remapped: %d\n", ((fn_t)again)(1));
	printf("sum %d\n", sum);
	return 0;
}
