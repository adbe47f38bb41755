/* hd_smc.c — self-modifying code inside the block that is running: a
 * store rewrites the immediate of an instruction further on in the same
 * straight-line code (and of the very next instruction), which then
 * executes with the new value.  x86 guarantees it: a write to an
 * instruction already fetched or decoded is detected and the instruction
 * fetched again (SDM vol. 3A, 11.6 "Self-Modifying Code").
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef long (*fn_t)(void);

/* mov byte [rip+7], 0x2a ; mov eax, 1 ; add eax, 5 ; ret
 * the store's next rip is 7; the add's imm8 is at 7 + 5 + 2 = 14 */
static const uint8_t ahead[] = {
	0xc6, 0x05, 0x07, 0x00, 0x00, 0x00, 0x2a, /* mov byte [rip+7], 0x2a */
	0xb8, 0x01, 0x00, 0x00, 0x00,		  /* mov eax, 1 */
	0x83, 0xc0, 0x05,			  /* add eax, 5 */
	0xc3,					  /* ret */
};

/* xor eax, eax ; mov byte [rip+1], 4 ; mov al, 3 ; ret
 * the store's next rip is 9, the imm8 of mov al is at 10 */
static const uint8_t next[] = {
	0x31, 0xc0,				  /* xor eax, eax */
	0xc6, 0x05, 0x01, 0x00, 0x00, 0x00, 0x04, /* mov byte [rip+1], 4 */
	0xb0, 0x03,				  /* mov al, 3 */
	0xc3,					  /* ret */
};

int main(void)
{
	uint8_t *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (code == MAP_FAILED)
		return 1;
	memcpy(code, ahead, sizeof(ahead));
	printf("further on in the block: %ld\n", ((fn_t)code)());
	printf("called again: %ld\n", ((fn_t)code)());
	memcpy(code + 64, next, sizeof(next));
	printf("the next instruction: %ld\n", ((fn_t)(code + 64))());
	memcpy(code, ahead, sizeof(ahead));
	printf("restored and run: %ld\n", ((fn_t)code)());
	return 0;
}
