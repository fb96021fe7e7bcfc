/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text within 80 columns: a long line (a 64-queue NIC's coalescing, its
 * features, a queue's IRQ list) goes on over more lines, broken after a
 * comma or at a space, each continuation indented under the value (column
 * 17 after a "  label:" column, else two more than the line's own indent).
 * Prose (a policy's reasons, a plan's notes) breaks at the last space that
 * fits: a list's commas are where its items end, a sentence's are not.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define WRAP_COLUMNS 80

/* Where the value of "  label:       value" starts, else the line's indent + 2. */
static size_t continuation(const char *line, size_t len)
{
	size_t lead = strspn(line, " ");
	const char *colon = memchr(line, ':', len);

	if (lead == 2 && colon && colon < line + 17 && (size_t)(colon - line) + 1 < len &&
	    strspn(colon + 1, " ") + (size_t)(colon - line) + 1 == 17)
		return 17;
	return lead + 2 < WRAP_COLUMNS / 2 ? lead + 2 : 4;
}

static void wrap_line(FILE *out, const char *line, size_t len, size_t indent, bool commas)
{
	size_t col = 0;

	if (!indent)
		indent = continuation(line, len);

	while (len > WRAP_COLUMNS - col) {
		size_t room = WRAP_COLUMNS - col, cut = 0;

		/* the last space within the room, after a comma if there is one */
		for (size_t i = room; commas && i > 0 && !cut; i--)
			if (line[i] == ' ' && line[i - 1] == ',')
				cut = i;
		for (size_t i = room; i > 0 && !cut; i--)
			if (line[i] == ' ')
				cut = i;
		if (!cut || cut <= strspn(line, " "))
			break;	/* one word longer than a line: as it is */
		fprintf(out, "%.*s\n%*s", (int)cut, line, (int)indent, "");
		line += cut + 1;
		len -= cut + 1;
		col = indent;
	}
	fprintf(out, "%.*s\n", (int)len, line);
}

static void print_lines(FILE *out, const char *text, size_t indent, bool commas)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		wrap_line(out, text, len, indent, commas);
		text += len + (nl ? 1 : 0);
	}
}

void cli_print_wrapped(FILE *out, const char *text, size_t indent)
{
	print_lines(out, text, indent, true);
}

void cli_print_prose(FILE *out, const char *text, size_t indent)
{
	print_lines(out, text, indent, false);
}
