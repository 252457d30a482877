/* cmd_formats.c — `benchlog formats`: the registry, one line each. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "parsers/parser.h"

int cmd_formats(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--help") == 0) {
		cli_help("formats", "Lists each input format (parser) with the tables it writes.\n");
		return 0;
	}
	if (argc > 1) {
		cli_usage_error("formats", "takes no arguments");
		return EXIT_USAGE;
	}
	printf("formats:\n");
	for (size_t i = 0; bl_parsers[i]; i++) {
		const struct bl_parser *p = bl_parsers[i];
		printf("  %-12s %s", p->name, p->summary);
		const char *sep = " -> ";
		for (const struct bl_table_def *const *t = p->tables; t && *t; t++) {
			printf("%s%s", sep, (*t)->name);
			sep = ", ";
		}
		putchar('\n');
	}
	printf("tables:\n");
	/* each table once, in registry order */
	const struct bl_table_def *seen[64];
	size_t ns = 0;
	for (size_t i = 0; bl_parsers[i]; i++) {
		for (const struct bl_table_def *const *t = bl_parsers[i]->tables; t && *t; t++) {
			bool dup = false;
			for (size_t k = 0; k < ns; k++)
				if (seen[k] == *t)
					dup = true;
			if (dup || ns == 64)
				continue;
			seen[ns++] = *t;
			printf("  %-14s %s\n", (*t)->name, (*t)->doc);
		}
	}
	return 0;
}
