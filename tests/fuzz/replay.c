/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A main for the libFuzzer targets when the build has no libFuzzer: runs
 * the seed corpus (tests/fuzz/corpus/TARGET/, or the files given) and a
 * fixed number of deterministic mutations of each seed, so that make check
 * exercises every target on every build (a real fuzzing run uses
 * -fsanitize=fuzzer and the same target files without this main).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUTATIONS 2000
#define INPUT_MAX 65536

static uint32_t rng = 2463534242u;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static unsigned long run_one(const uint8_t *seed, size_t n)
{
	static uint8_t buf[INPUT_MAX];
	static const uint8_t interesting[] = { 0, 0xff, 0x7f, 0x80, ':', ',', '=', '[', ']', '/' };
	unsigned long runs = 1;

	LLVMFuzzerTestOneInput(seed, n);
	for (int m = 0; m < MUTATIONS; m++) {
		size_t len = n;

		memcpy(buf, seed, n);
		for (int k = 1 + (int)(next() % 4); k > 0; k--) {
			uint32_t op = next() % 4, at = len ? next() % (uint32_t)len : 0;

			if (op == 0 && len)
				buf[at] ^= (uint8_t)(1u << (next() % 8));
			else if (op == 1 && len)
				buf[at] = interesting[next() % sizeof(interesting)];
			else if (op == 2 && len < INPUT_MAX) {
				memmove(buf + at + 1, buf + at, len - at);
				buf[at] = (uint8_t)next();
				len++;
			} else if (len) {
				memmove(buf + at, buf + at + 1, len - at - 1);
				len--;
			}
		}
		LLVMFuzzerTestOneInput(buf, len);
		runs++;
	}
	return runs;
}

static int run_file(const char *path, unsigned long *runs)
{
	static uint8_t seed[INPUT_MAX];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(seed, 1, sizeof(seed), f);
	fclose(f);
	*runs += run_one(seed, n);
	return 0;
}

int main(int argc, char **argv)
{
	const char *src = getenv("NP_SRCDIR"), *name = strrchr(argv[0], '/');
	unsigned long runs = 0, files = 0;
	char dir[4096], path[8192];
	struct dirent *e;
	DIR *d;

	for (int i = 1; i < argc; i++, files++)
		if (run_file(argv[i], &runs) < 0) {
			printf("not ok 1 - cannot read %s\n1..1\n", argv[i]);
			return 1;
		}
	if (argc == 1) {
		name = name ? name + 1 : argv[0];
		snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", src ? src : "..", name);
		d = opendir(dir);
		if (!d) {
			printf("not ok 1 - no corpus %s\n1..1\n", dir);
			return 1;
		}
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (run_file(path, &runs) == 0)
				files++;
		}
		closedir(d);
	}
	printf("%s 1 - %lu inputs from %lu seeds, no crash\n1..1\n", files ? "ok" : "not ok", runs,
	       files);
	return files ? 0 : 1;
}
