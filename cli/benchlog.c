/* benchlog.c — the program: the process set up, then cli_main(). */
#include <signal.h>
#include "cli/cli.h"
#include "core/cleanup.h"

int main(int argc, char **argv)
{
	/* A closed pipe (benchlog parse … | head -1) is a write error we
	 * report through the exit status, not a signal death. */
	signal(SIGPIPE, SIG_IGN);
	/* Past `ulimit -f` a write fails with EFBIG, reported like a full
	 * disk, instead of killing benchlog before it cleans up. */
	signal(SIGXFSZ, SIG_IGN);
	bl_cleanup_init();
	return cli_main(argc, argv);
}
