/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atimectl - show and tune the relatime interval, globally and per
 * filesystem.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atimectl.h"
#include "close-stdout.h"
#include "escape.h"
#include "list-targets.h"
#include "status.h"
#include "target.h"

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
	{ "check",   verb_check },
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
	      " atimectl [options] check [TARGET...]     can atime consumers trust atime?\n"
	      "\n"
	      "Show and tune how often relatime mounts update access times.\n"
	      "\n"
	      "TARGET is a mount point, a path inside a filesystem, a source device,\n"
	      "UUID=/LABEL=, or MAJ:MIN.  DURATION is seconds or a time span such as\n"
	      "90s, 30min, 1h, \"1d 12h\", 2w.\n"
	      "\n"
	      "Options:\n"
	      " -o, --output LIST      output columns (+LIST adds to the defaults)\n"
	      "     --output-all       output all columns\n"
	      " -n, --noheadings       do not print headings\n"
	      " -u, --notruncate       do not truncate text in columns\n"
	      " -r, --raw              raw output (global: seconds)\n"
	      " -J, --json             JSON output\n"
	      " -P, --pairs            KEY=\"value\" output\n"
	      " -A, --all              also show pseudo filesystems (proc, sysfs, ...)\n"
	      " -t, --types LIST       only these filesystem types (noLIST: all but these)\n"
	      " -F, --tab-file FILE    read mounts from FILE, not /proc/self/mountinfo\n"
	      "     --fstab FILE       apply: read FILE instead of /etc/fstab\n"
	      " -O, --options OPTS     apply: take mount options from OPTS\n"
	      "     --if-mounted       apply: a TARGET mount point that is not mounted\n"
	      "                        (any more) has nothing to apply: not an error\n"
	      "     --changes          apply: only what mounts declare anew in utab\n"
	      "     --record-only      apply --changes: record what mounts declare,\n"
	      "                        apply nothing\n"
	      "     --interval DURATION  check: what if the interval were DURATION\n"
	      " -q, --quiet            set, global: no warning about atime consumers\n"
	      " -v, --verbose          say what is done and what is skipped\n"
	      " -h, --help             display this help\n"
	      " -V, --version          display version\n", out);
	status_print_columns_help(out);
	fputs("\nSee atimectl(8).\n", out);
}

enum {
	OPT_FSTAB = 0x100,
	OPT_OUTPUT_ALL,
	OPT_LIST_TARGETS,
	OPT_IF_MOUNTED,
	OPT_INTERVAL,
	OPT_CHANGES,
	OPT_RECORD_ONLY,
};

static const char shortopts[] = "+:o:nurJPAt:F:O:qvhV";

static const struct option longopts[] = {
	{ "output",       required_argument, NULL, 'o' },
	{ "output-all",   no_argument,       NULL, OPT_OUTPUT_ALL },
	{ "noheadings",   no_argument,       NULL, 'n' },
	{ "notruncate",   no_argument,       NULL, 'u' },
	{ "raw",          no_argument,       NULL, 'r' },
	{ "json",         no_argument,       NULL, 'J' },
	{ "pairs",        no_argument,       NULL, 'P' },
	{ "all",          no_argument,       NULL, 'A' },
	{ "types",        required_argument, NULL, 't' },
	{ "tab-file",     required_argument, NULL, 'F' },
	{ "fstab",        required_argument, NULL, OPT_FSTAB },
	{ "options",      required_argument, NULL, 'O' },
	{ "if-mounted",   no_argument,       NULL, OPT_IF_MOUNTED },
	{ "changes",      no_argument,       NULL, OPT_CHANGES },
	{ "record-only",  no_argument,       NULL, OPT_RECORD_ONLY },
	{ "interval",     required_argument, NULL, OPT_INTERVAL },
	{ "quiet",        no_argument,       NULL, 'q' },
	{ "verbose",      no_argument,       NULL, 'v' },
	{ "help",         no_argument,       NULL, 'h' },
	{ "version",      no_argument,       NULL, 'V' },
	{ "list-targets", no_argument,       NULL, OPT_LIST_TARGETS },
	{ NULL, 0, NULL, 0 }
};

/*
 * getopt's own messages take two lines and name "-J" for "--json=1"; the
 * contract wants one line that names what the user typed.  typed is the
 * argument that held the bad option.
 */
static void option_error(int c, const char *typed)
{
	char *esc;

	if (strncmp(typed, "--", 2) == 0) {
		const char *name = typed + 2;
		size_t len = strcspn(name, "=");
		const struct option *match = NULL;
		int matches = 0;

		for (const struct option *o = longopts; o->name; o++) {
			if (strncmp(o->name, name, len) != 0)
				continue;
			if (strlen(o->name) == len) {	/* exact */
				match = o;
				matches = 1;
				break;
			}
			match = o;
			matches++;
		}
		if (c == ':' && match) {
			fprintf(stderr, "atimectl: option '--%s' needs an argument", match->name);
		} else if (matches == 1 && name[len] == '=') {
			fprintf(stderr, "atimectl: option '--%s' takes no argument", match->name);
		} else if (matches > 1) {
			const char *sep = "";

			fprintf(stderr, "atimectl: option '--%.*s' is ambiguous: ",
				(int) len, name_escape(name, &esc));
			free(esc);
			for (const struct option *o = longopts; o->name; o++) {
				if (strncmp(o->name, name, len) == 0) {
					fprintf(stderr, "%s--%s", sep, o->name);
					sep = ", ";
				}
			}
		} else {
			fprintf(stderr, "atimectl: invalid option '%s'", name_escape(typed, &esc));
			free(esc);
		}
	} else if (c == ':') {
		fprintf(stderr, "atimectl: option '-%c' needs an argument", optopt);
	} else if (optopt > 0x20 && optopt < 0x7f) {
		fprintf(stderr, "atimectl: invalid option '-%c'", optopt);
	} else {
		fprintf(stderr, "atimectl: invalid option '-\\x%02x'", (unsigned char) optopt);
	}
	fputs(" (see atimectl --help)\n", stderr);
}

static void unknown_verb(const char *word)
{
	char *esc;

	fprintf(stderr, "atimectl: unknown command '%s' (commands:", name_escape(word, &esc));
	free(esc);
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		fprintf(stderr, "%s %s", i ? "," : "", verbs[i].name);
	fputs("; see atimectl --help)\n", stderr);
}

/*
 * The output options and the verbs that print what each shapes: one rule
 * for all, a verb that does not refuses it.  "global" prints only without
 * a DURATION.
 */
enum {
	PRINTS_STATUS = 1 << 0,
	PRINTS_GLOBAL = 1 << 1,
	PRINTS_EXPLAIN = 1 << 2,
	PRINTS_CHECK = 1 << 3,
};

/* Returns false after saying which output option verb does not take. */
static bool check_output_options(const struct options *opts, const struct verb *verb,
				 int nargs)
{
	const struct {
		const char *name;
		bool given;
		unsigned int verbs;	/* PRINTS_* */
		const char *where;
	} output_options[] = {
		{ "output", opts->columns != NULL, PRINTS_STATUS, "only to status" },
		{ "output-all", opts->output_all, PRINTS_STATUS, "only to status" },
		{ "noheadings", opts->noheadings, PRINTS_STATUS, "only to status" },
		{ "notruncate", opts->notruncate, PRINTS_STATUS, "only to status" },
		{ "raw", opts->raw, PRINTS_STATUS | PRINTS_GLOBAL,
		  "only to status and global without DURATION" },
		{ "json", opts->json, PRINTS_STATUS | PRINTS_GLOBAL | PRINTS_EXPLAIN | PRINTS_CHECK,
		  "only to status, global without DURATION, explain and check" },
		{ "pairs", opts->pairs, PRINTS_STATUS, "only to status" },
		{ "all", opts->all, PRINTS_STATUS, "only to status" },
		{ "types", opts->types != NULL, PRINTS_STATUS, "only to status" },
	};
	unsigned int prints = 0;
	const char *what = verb->name;

	if (verb->run == verb_status)
		prints = PRINTS_STATUS;
	else if (verb->run == verb_explain)
		prints = PRINTS_EXPLAIN;
	else if (verb->run == verb_check)
		prints = PRINTS_CHECK;
	else if (verb->run == verb_global && nargs == 0)
		prints = PRINTS_GLOBAL;
	else if (verb->run == verb_global)
		what = "global DURATION";

	for (size_t i = 0; i < sizeof(output_options) / sizeof(output_options[0]); i++) {
		if (output_options[i].given && !(output_options[i].verbs & prints)) {
			fprintf(stderr, "atimectl: --%s does not apply to %s (%s)\n",
				output_options[i].name, what, output_options[i].where);
			return false;
		}
	}
	return true;
}

/* One output format: returns false after naming two that were given. */
static bool check_output_formats(const struct options *opts)
{
	const char *given[3];
	int n = 0;

	if (opts->json)
		given[n++] = "json";
	if (opts->raw)
		given[n++] = "raw";
	if (opts->pairs)
		given[n++] = "pairs";
	if (n > 1) {
		fprintf(stderr, "atimectl: --%s and --%s are mutually exclusive\n",
			given[0], given[1]);
		return false;
	}
	return true;
}

/*
 * -t takes what findmnt -t takes and mnt_match_fstype() matches: names
 * separated by commas, each or the whole list after "no".  An empty name
 * would match nothing (or, after "no", everything) without a word.
 */
static bool types_valid(const char *list)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (len >= 2 && strncmp(p, "no", 2) == 0) {
			p += 2;
			len -= 2;
		}
		if (len == 0) {
			char *esc;

			fprintf(stderr, "atimectl: empty type name in --types '%s'\n",
				name_escape(list, &esc));
			free(esc);
			return false;
		}
		if (p[len] == '\0')
			return true;
		p += len + 1;
	}
}

/* After the verb, "-1" is a value, not an option: no option is a digit. */
static bool is_negative_number(const char *arg)
{
	return arg[0] == '-' && ((arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.');
}

static int parse_options(int argc, char **argv, struct options *opts,
			 char **args, int *nargs)
{
	int c;

	/* getopt's own messages take two lines; the contract wants one */
	opterr = 0;
	*nargs = 0;
	while (optind < argc) {
		int before = optind;

		if (*nargs > 0 && is_negative_number(argv[optind])) {
			args[(*nargs)++] = argv[optind++];
			continue;
		}
		/* "+": stop at each argument, so options may come before and
		 * after it but values such as "-1" are seen in place */
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c == -1) {
			if (optind == before + 1 && strcmp(argv[before], "--") == 0) {
				while (optind < argc)
					args[(*nargs)++] = argv[optind++];
				break;
			}
			if (optind < argc)
				args[(*nargs)++] = argv[optind++];
			continue;
		}
		switch (c) {
		case 'o':
			opts->columns = optarg;
			break;
		case OPT_OUTPUT_ALL:
			opts->output_all = true;
			break;
		case 'n':
			opts->noheadings = true;
			break;
		case 'u':
			opts->notruncate = true;
			break;
		case 'r':
			opts->raw = true;
			break;
		case 'J':
			opts->json = true;
			break;
		case 'P':
			opts->pairs = true;
			break;
		case 'A':
			opts->all = true;
			break;
		case 't':
			opts->types = optarg;
			break;
		case 'F':
			opts->tab_file = optarg;
			break;
		case OPT_FSTAB:
			opts->fstab_file = optarg;
			break;
		case 'O':
			opts->optstr = optarg;
			break;
		case OPT_IF_MOUNTED:
			opts->if_mounted = true;
			break;
		case OPT_CHANGES:
			opts->changes = true;
			break;
		case OPT_RECORD_ONLY:
			opts->record_only = true;
			break;
		case OPT_INTERVAL:
			opts->interval = optarg;
			break;
		case 'q':
			opts->quiet = true;
			break;
		case 'v':
			opts->verbose = true;
			break;
		case OPT_LIST_TARGETS:
			opts->list_targets = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("atimectl %s\n", ATIMECTL_VERSION);
			return 0;
		default:
			/* a long option or the end of a cluster: optind moved on */
			option_error(c, argv[optind > before ? optind - 1 : before]);
			return EXIT_USAGE;
		}
	}
	return -1;
}

static int run(int argc, char **argv)
{
	struct options opts = { 0 };
	const struct verb *verb = NULL;
	char **args;
	int nargs, r;

	args = calloc((size_t) argc + 1, sizeof(*args));
	if (!args) {
		fprintf(stderr, "atimectl: out of memory\n");
		return 1;
	}
	r = parse_options(argc, argv, &opts, args, &nargs);
	if (r >= 0)
		goto out;
	r = EXIT_USAGE;

	if (opts.types && !types_valid(opts.types))
		goto out;

	/* a test hook, documented in atimectl(8): the table -F names */
	if (!opts.tab_file) {
		const char *env = getenv("ATIMECTL_MOUNTINFO");

		if (env && *env)
			opts.tab_file = env;
	}
	if (opts.list_targets) {
		if (nargs > 0) {
			fprintf(stderr, "atimectl: --list-targets takes no arguments\n");
			goto out;
		}
		r = list_targets(&opts);
		goto out;
	}

	/* a first argument that is no verb is a TARGET of "status" */
	if (nargs > 0) {
		for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
			if (strcmp(args[0], verbs[i].name) == 0) {
				verb = &verbs[i];
				break;
			}
		}
	}
	if (verb) {
		nargs--;
		memmove(args, args + 1, (size_t) nargs * sizeof(*args));
	} else if (nargs > 0 && !target_spec_is_plausible(args[0])) {
		unknown_verb(args[0]);
		goto out;
	} else {
		verb = &verbs[0];
	}

	if (opts.optstr && verb->run != verb_apply) {
		fprintf(stderr, "atimectl: --options only applies to the apply verb\n");
		goto out;
	}
	if (opts.if_mounted && verb->run != verb_apply) {
		fprintf(stderr, "atimectl: --if-mounted only applies to the apply verb\n");
		goto out;
	}
	if ((opts.changes || opts.record_only) && verb->run != verb_apply) {
		fprintf(stderr, "atimectl: --%s only applies to the apply verb\n",
			opts.changes ? "changes" : "record-only");
		goto out;
	}
	if (opts.interval && verb->run != verb_check) {
		fprintf(stderr, "atimectl: --interval only applies to the check verb\n");
		goto out;
	}
	if (opts.quiet && !(verb->run == verb_set || (verb->run == verb_global && nargs > 0))) {
		fprintf(stderr, "atimectl: --quiet only applies to set and global DURATION\n");
		goto out;
	}
	if (opts.fstab_file && verb->run != verb_apply) {
		fprintf(stderr, "atimectl: --fstab only applies to the apply verb\n");
		goto out;
	}
	if (!check_output_options(&opts, verb, nargs))
		goto out;
	if (!check_output_formats(&opts))
		goto out;
	if (opts.columns && opts.output_all) {
		fprintf(stderr, "atimectl: --output and --output-all are mutually exclusive\n");
		goto out;
	}

	r = verb->run(&opts, nargs, args);
out:
	free(args);
	return r;
}

int main(int argc, char **argv)
{
	return close_stdout(run(argc, argv));
}
