/*
 * prog.c - main() for the executable and the library entry point of the
 * shared-library case; the types come from testdata/example/st_table.c,
 * linked in beside it.
 */
struct st_table;

struct prog_state {
	char verbose;
	struct st_table *table;
	int argc;
};

struct prog_state prog_state;

int main(int argc, char **argv)
{
	(void)argv;
	prog_state.argc = argc;
	return 0;
}
