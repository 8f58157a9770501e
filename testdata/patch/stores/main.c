/*
 * stores/main.c - stores 300 into st_table.entries_start through
 * st_set_start and prints what it reads back: 300 before a narrowing to
 * one byte, 255 once --saturate clamps the store (tests/e2e/patch.sh).
 */
#include <stdio.h>

struct st_table;
extern struct st_table example_table;
void st_set_start(struct st_table *tab, unsigned long start);
unsigned long st_get_start(void);

int main(void)
{
	st_set_start(&example_table, 300);
	printf("%lu\n", st_get_start());
	return 0;
}
