/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atimectl - show and tune the relatime interval, globally and per
 * filesystem.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atimectl.h"
#include "status.h"

#ifndef ATIMECTL_VERSION
#define ATIMECTL_VERSION "unknown"
#endif

struct verb {
	const char *name;
	int (*run)(const struct options *opts, int argc, char **argv);
};

static const struct verb verbs[] = {
	{ "status",  verb_status },
	{ "set",     verb_set },
	{ "reset",   verb_reset },
	{ "global",  verb_global },
	{ "apply",   verb_apply },
	{ "explain", verb_explain },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " atimectl [options] [status] [TARGET...]  show mounted filesystems\n"
	      " atimectl [options] set TARGET DURATION   set a filesystem's interval\n"
	      " atimectl [options] reset TARGET...       back to the global interval\n"
	      " atimectl [options] global [DURATION]     show or set fs.relatime_interval\n"
	      " atimectl [options] apply [TARGET...]     apply x-relatime-interval= options\n"
	      " atimectl [options] explain FILE...       will the next read update atime?\n"
	      "\n"
	      "Show and tune how often relatime mounts update access times.\n"
	      "\n"
	      "TARGET is a mount point, a path inside a filesystem, a source device,\n"
	      "UUID=/LABEL=, or MAJ:MIN.  DURATION is seconds or a time span such as\n"
	      "90s, 30min, 1h, \"1d 12h\", 2w.\n"
	      "\n"
	      "Options:\n"
	      " -o, --output LIST      output columns (+LIST adds to the defaults)\n"
	      " -n, --noheadings       do not print headings\n"
	      " -r, --raw              raw output (global: seconds)\n"
	      " -J, --json             JSON output\n"
	      " -a, --all              also show pseudo filesystems (proc, sysfs, ...)\n"
	      " -F, --tab-file FILE    read mounts from FILE, not /proc/self/mountinfo\n"
	      "     --fstab FILE       apply: read FILE instead of /etc/fstab\n"
	      " -O, --options OPTS     apply: take mount options from OPTS\n"
	      " -v, --verbose          say what is done and what is skipped\n"
	      " -h, --help             display this help\n"
	      " -V, --version          display version\n", out);
	status_print_columns_help(out);
	fputs("\nSee atimectl(8).\n", out);
}

enum {
	OPT_FSTAB = 0x100,
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output",     required_argument, NULL, 'o' },
		{ "noheadings", no_argument,       NULL, 'n' },
		{ "raw",        no_argument,       NULL, 'r' },
		{ "json",       no_argument,       NULL, 'J' },
		{ "all",        no_argument,       NULL, 'a' },
		{ "tab-file",   required_argument, NULL, 'F' },
		{ "fstab",      required_argument, NULL, OPT_FSTAB },
		{ "options",    required_argument, NULL, 'O' },
		{ "verbose",    no_argument,       NULL, 'v' },
		{ "help",       no_argument,       NULL, 'h' },
		{ "version",    no_argument,       NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct options opts = { 0 };
	const struct verb *verb = &verbs[0];
	int c;

	/* getopt's own messages take two lines; the contract wants one */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:nrJaF:O:vhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			opts.columns = optarg;
			break;
		case 'n':
			opts.noheadings = true;
			break;
		case 'r':
			opts.raw = true;
			break;
		case 'J':
			opts.json = true;
			break;
		case 'a':
			opts.all = true;
			break;
		case 'F':
			opts.tab_file = optarg;
			break;
		case OPT_FSTAB:
			opts.fstab_file = optarg;
			break;
		case 'O':
			opts.optstr = optarg;
			break;
		case 'v':
			opts.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return fflush(stdout) == 0 ? 0 : 1;
		case 'V':
			printf("atimectl %s\n", ATIMECTL_VERSION);
			return fflush(stdout) == 0 ? 0 : 1;
		case ':':
			fprintf(stderr, "atimectl: option '%s' needs an argument (see atimectl --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		default:
			if (optopt)
				fprintf(stderr, "atimectl: invalid option '-%c' (see atimectl --help)\n",
					optopt);
			else
				fprintf(stderr, "atimectl: invalid option '%s' (see atimectl --help)\n",
					argv[optind - 1]);
			return EXIT_USAGE;
		}
	}

	/* a first argument that is no verb is a TARGET of "status" */
	if (optind < argc) {
		for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
			if (strcmp(argv[optind], verbs[i].name) == 0) {
				verb = &verbs[i];
				optind++;
				break;
			}
		}
	}

	if (opts.optstr && verb->run != verb_apply) {
		fprintf(stderr, "atimectl: --options only applies to the apply verb\n");
		return EXIT_USAGE;
	}
	if (opts.fstab_file && verb->run != verb_apply) {
		fprintf(stderr, "atimectl: --fstab only applies to the apply verb\n");
		return EXIT_USAGE;
	}
	if (opts.columns && verb->run != verb_status) {
		fprintf(stderr, "atimectl: --output only applies to the status verb\n");
		return EXIT_USAGE;
	}
	if (opts.json && opts.raw && verb->run == verb_status) {
		fprintf(stderr, "atimectl: --json and --raw are mutually exclusive\n");
		return EXIT_USAGE;
	}

	return verb->run(&opts, argc - optind, argv + optind);
}
