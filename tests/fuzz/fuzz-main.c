/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Without libFuzzer (gcc builds): feed every file of the directories (or
 * the files) named on the command line to the fuzz target once, so the
 * seed corpus still runs as a regression test.
 */
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	static uint8_t buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

int main(int argc, char **argv)
{
	int count = 0;

	for (int i = 1; i < argc; i++) {
		struct dirent *de;
		struct stat st;
		DIR *dir;

		if (stat(argv[i], &st) == 0 && !S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]) < 0)
				return 1;
			count++;
			continue;
		}
		dir = opendir(argv[i]);
		if (!dir) {
			perror(argv[i]);
			return 1;
		}
		while ((de = readdir(dir))) {
			char path[PATH_MAX];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			if (run_file(path) < 0) {
				closedir(dir);
				return 1;
			}
			count++;
		}
		closedir(dir);
	}
	printf("%d inputs ran clean\n", count);
	return count > 0 ? 0 : 1;
}
