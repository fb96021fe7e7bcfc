/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The configuration other owners apply (owners_read.c), read once per
 * command into memory and matched against each device there (owners.c). */
#ifndef NP_OWNERS_H
#define NP_OWNERS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

/* One .link file, NetworkManager keyfile or tuned net section that sets
 * knobs netpolicy sets. */
struct owner_file {
	char *path;		/* as shown: without the --root prefix */
	char *match;		/* .link: Name=/OriginalName= globs; keyfile:
				 * interface-name; tuned: devices= globs */
	bool has_match;		/* that key was given */
	bool masked;		/* .link: a symlink to /dev/null hides the name */
	char knobs[CLI_OWNER_KNOBS];
};

struct owner_list {
	struct owner_file *v;
	size_t n, cap;
};

/* Bounds on what hostile configuration can make netpolicy read. */
#define OWNERS_FILES_MAX 1024	/* files of one directory */
#define OWNERS_LINES_MAX 10000	/* lines of one file */
#define OWNERS_TUNED_PROFILES_MAX 32	/* profiles, includes counted */
#define OWNERS_TUNED_DEPTH_MAX 8

/* Every .link file udev would consider, in the order it does (the first
 * matching one wins); masked names are kept as masked entries. */
void owners_read_links(const struct cli *c, struct owner_list *l);
/* NetworkManager keyfiles naming a device by interface-name that set
 * [ethtool] knobs. */
void owners_read_nm(const struct cli *c, struct owner_list *l);
/* The net sections of tuned's active profiles and those they include,
 * each profile read once. */
void owners_read_tuned(const struct cli *c, struct owner_list *l);
void owners_list_free(struct owner_list *l);

/* Append word to a ", "-separated list once. */
void owners_add_word(char *buf, size_t len, const char *word);

#endif
