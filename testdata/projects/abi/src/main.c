/* A small project for tests/e2e/abi.sh: one struct of each kind of
 * public interface (include/, an installed header, packed) and a private
 * one, plus what <stdio.h> and <time.h> bring (system headers). */
#include <stdio.h>
#include <time.h>

#include <inst.h>

#include "abi/api.h"
#include "priv.h"
#include "wire.h"

struct api_opts opts;
struct priv_state state;
struct wire_hdr hdr;
struct inst_cfg cfg;
struct tm when;
FILE *out;

int main(void)
{
	printf("%zu %zu %zu %zu\n", sizeof(opts), sizeof(state), sizeof(hdr), sizeof(cfg));
	return 0;
}
