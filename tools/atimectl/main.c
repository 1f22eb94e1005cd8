/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atimectl - show and tune the relatime interval, globally and per
 * filesystem.
 */
#include <getopt.h>
#include <stdarg.h>
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

/*
 * Where an option can be used: each verb, and "global" with and without
 * a DURATION apart (only without it does it print).
 */
enum use {
	USE_STATUS,
	USE_SET,
	USE_RESET,
	USE_GLOBAL,
	USE_GLOBAL_SET,
	USE_APPLY,
	USE_EXPLAIN,
	USE_CHECK,
	N_USES
};

#define U(use) (1u << (use))

static const struct {
	const char *what;	/* the verb, as "--X does not apply to WHAT" */
	const char *where;	/* in a list of where an option applies */
} uses[N_USES] = {
	[USE_STATUS]     = { "status",          "status" },
	[USE_SET]        = { "set",             "set" },
	[USE_RESET]      = { "reset",           "reset" },
	[USE_GLOBAL]     = { "global",          "global without DURATION" },
	[USE_GLOBAL_SET] = { "global DURATION", "global DURATION" },
	[USE_APPLY]      = { "apply",           "apply" },
	[USE_EXPLAIN]    = { "explain",         "explain" },
	[USE_CHECK]      = { "check",           "check" },
};

struct verb {
	const char *name;
	int (*run)(const struct options *opts, int argc, char **argv);
	enum use use, use_with_args;	/* without and with arguments */
	int min_args, max_args;		/* -1: any number */
	const char *args;		/* what it expects, when the count is wrong */
};

static const struct verb verbs[] = {
	{ "status",  verb_status,  USE_STATUS,  USE_STATUS,     0, -1, NULL },
	{ "set",     verb_set,     USE_SET,     USE_SET,        2,  2, "TARGET DURATION" },
	{ "reset",   verb_reset,   USE_RESET,   USE_RESET,      1, -1, "at least one TARGET" },
	{ "global",  verb_global,  USE_GLOBAL,  USE_GLOBAL_SET, 0,  1, "at most one DURATION" },
	{ "apply",   verb_apply,   USE_APPLY,   USE_APPLY,      0, -1, NULL },
	{ "explain", verb_explain, USE_EXPLAIN, USE_EXPLAIN,    1, -1, "at least one FILE" },
	{ "check",   verb_check,   USE_CHECK,   USE_CHECK,      0, -1, NULL },
};

#define N_VERBS (sizeof(verbs) / sizeof(verbs[0]))

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
	      "     --follow           apply --changes: keep watching utab, apply each\n"
	      "                        change, until terminated\n"
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
	OPT_FOLLOW,
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
	{ "follow",       no_argument,       NULL, OPT_FOLLOW },
	{ "interval",     required_argument, NULL, OPT_INTERVAL },
	{ "quiet",        no_argument,       NULL, 'q' },
	{ "verbose",      no_argument,       NULL, 'v' },
	{ "help",         no_argument,       NULL, 'h' },
	{ "version",      no_argument,       NULL, 'V' },
	{ "list-targets", no_argument,       NULL, OPT_LIST_TARGETS },
	{ NULL, 0, NULL, 0 }
};

/*
 * The options only some verbs take, and where each applies (U(USE_*)), in
 * the order they are checked.  The others (-F, -v, -h, -V) apply to all.
 * An output option, which shapes what a verb prints, is refused as "does
 * not apply to VERB (only to ...)"; any other as "only applies to ...".
 */
static const struct option_rule {
	int id;			/* getopt's value */
	unsigned int uses;
	bool output;
} option_rules[] = {
	{ 'O',              U(USE_APPLY),                   false },
	{ OPT_IF_MOUNTED,   U(USE_APPLY),                   false },
	{ OPT_CHANGES,      U(USE_APPLY),                   false },
	{ OPT_RECORD_ONLY,  U(USE_APPLY),                   false },
	{ OPT_FOLLOW,       U(USE_APPLY),                   false },
	{ OPT_INTERVAL,     U(USE_CHECK),                   false },
	{ 'q',              U(USE_SET) | U(USE_GLOBAL_SET), false },
	{ OPT_FSTAB,        U(USE_APPLY),                   false },
	{ 'o',              U(USE_STATUS),                  true },
	{ OPT_OUTPUT_ALL,   U(USE_STATUS),                  true },
	{ 'n',              U(USE_STATUS),                  true },
	{ 'u',              U(USE_STATUS),                  true },
	{ 'r',              U(USE_STATUS) | U(USE_GLOBAL),  true },
	{ 'J',              U(USE_STATUS) | U(USE_GLOBAL) | U(USE_EXPLAIN) | U(USE_CHECK), true },
	{ 'P',              U(USE_STATUS),                  true },
	{ 'A',              U(USE_STATUS),                  true },
	{ 't',              U(USE_STATUS),                  true },
};

#define N_RULES (sizeof(option_rules) / sizeof(option_rules[0]))
_Static_assert(N_RULES <= 32, "struct cmdline's given has a bit for each rule");

/* Options of which at most one may be given, in the order they are checked. */
static const int exclusive[][2] = {
	{ 'J', 'r' },
	{ 'J', 'P' },
	{ 'r', 'P' },
	{ 'o', OPT_OUTPUT_ALL },
};

/* What parse_options() found besides the options themselves. */
struct cmdline {
	char **args;		/* the arguments, the verb first if any */
	int nargs;
	unsigned int given;	/* bit i: option_rules[i] was given */
};

/* The one way main.c says a usage error: "atimectl: MESSAGE". */
__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("atimectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static const char *long_name(int id)
{
	for (const struct option *o = longopts; o->name; o++)
		if (o->val == id)
			return o->name;
	return "?";
}

/*
 * The long option "--name" (up to '=') stands for, as getopt_long()
 * matches it: the exact one, or the one it is a prefix of.  NULL when it
 * stands for none or for several (*matches counts them).
 */
static const struct option *long_match(const char *name, size_t len, int *matches)
{
	const struct option *match = NULL;

	*matches = 0;
	for (const struct option *o = longopts; o->name; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len) {
			*matches = 1;
			return o;
		}
		match = o;
		(*matches)++;
	}
	return *matches == 1 ? match : NULL;
}

/* "--output, --output-all, --options": the long options name is a prefix of. */
static void long_candidates(const char *name, size_t len, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const struct option *o = longopts; o->name && used < size; o++)
		if (strncmp(o->name, name, len) == 0)
			used += (size_t) snprintf(buf + used, size - used, "%s--%s",
						  used ? ", " : "", o->name);
}

/*
 * getopt's own messages take two lines and name "-J" for "--json=1"; the
 * contract wants one line that names what the user typed.  typed is the
 * argument that held the bad option.
 */
static int long_option_error(int c, const char *typed)
{
	const char *name = typed + 2;
	size_t len = strcspn(name, "=");
	const struct option *match;
	char list[512], *esc;
	int matches, r;

	match = long_match(name, len, &matches);
	if (c == ':' && match)
		return usage_error("option '--%s' needs an argument (see atimectl --help)",
				   match->name);
	if (match && name[len] == '=')
		return usage_error("option '--%s' takes no argument (see atimectl --help)",
				   match->name);
	if (matches > 1) {
		long_candidates(name, len, list, sizeof(list));
		r = usage_error("option '--%.*s' is ambiguous: %s (see atimectl --help)",
				(int) len, name_escape(name, &esc), list);
	} else {
		r = usage_error("invalid option '%s' (see atimectl --help)",
				name_escape(typed, &esc));
	}
	free(esc);
	return r;
}

static int option_error(int c, const char *typed)
{
	if (strncmp(typed, "--", 2) == 0)
		return long_option_error(c, typed);
	if (c == ':')
		return usage_error("option '-%c' needs an argument (see atimectl --help)", optopt);
	if (optopt > 0x20 && optopt < 0x7f)
		return usage_error("invalid option '-%c' (see atimectl --help)", optopt);
	return usage_error("invalid option '-\\x%02x' (see atimectl --help)",
			   (unsigned char) optopt);
}

static int unknown_verb(const char *word)
{
	char list[128], *esc;
	size_t used = 0;
	int r;

	for (size_t i = 0; i < N_VERBS; i++)
		used += (size_t) snprintf(list + used, sizeof(list) - used, "%s %s",
					  i ? "," : "", verbs[i].name);
	r = usage_error("unknown command '%s' (commands:%s; see atimectl --help)",
			name_escape(word, &esc), list);
	free(esc);
	return r;
}

/* "status, global without DURATION and check": where the uses apply. */
static void uses_list(unsigned int mask, char *buf, size_t size)
{
	int total = __builtin_popcount(mask), n = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < N_USES && used < size; i++) {
		if (!(mask & U(i)))
			continue;
		used += (size_t) snprintf(buf + used, size - used, "%s%s",
					  n == 0 ? "" : n == total - 1 ? " and " : ", ",
					  uses[i].where);
		n++;
	}
}

/*
 * The first option given that use does not take, refused; 0 when there is
 * none.
 */
static int check_option_uses(unsigned int given, enum use use)
{
	for (size_t i = 0; i < N_RULES; i++) {
		const struct option_rule *rule = &option_rules[i];
		const char *name = long_name(rule->id);
		char where[160];

		if (!(given & (1u << i)) || (rule->uses & U(use)))
			continue;
		uses_list(rule->uses, where, sizeof(where));
		if (rule->output)
			return usage_error("--%s does not apply to %s (only to %s)",
					   name, uses[use].what, where);
		if (__builtin_popcount(rule->uses) == 1)
			return usage_error("--%s only applies to the %s verb", name, where);
		return usage_error("--%s only applies to %s", name, where);
	}
	return 0;
}

static bool was_given(unsigned int given, int id)
{
	for (size_t i = 0; i < N_RULES; i++)
		if (option_rules[i].id == id)
			return given & (1u << i);
	return false;
}

/* Two options of which at most one may be given, refused; 0 when none. */
static int check_exclusive(unsigned int given)
{
	for (size_t i = 0; i < sizeof(exclusive) / sizeof(exclusive[0]); i++)
		if (was_given(given, exclusive[i][0]) && was_given(given, exclusive[i][1]))
			return usage_error("--%s and --%s are mutually exclusive",
					   long_name(exclusive[i][0]), long_name(exclusive[i][1]));
	return 0;
}

static int check_arg_count(const struct verb *verb, int nargs)
{
	if (nargs < verb->min_args || (verb->max_args >= 0 && nargs > verb->max_args))
		return usage_error("%s: expected %s (see --help)", verb->name, verb->args);
	return 0;
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
		if (len == 0)
			return false;
		if (p[len] == '\0')
			return true;
		p += len + 1;
	}
}

static int check_types(const char *list)
{
	char *esc;
	int r;

	if (!list || types_valid(list))
		return 0;
	r = usage_error("empty type name in --types '%s'", name_escape(list, &esc));
	free(esc);
	return r;
}

/* After the verb, "-1" is a value, not an option: no option is a digit. */
static bool is_negative_number(const char *arg)
{
	return arg[0] == '-' && ((arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.');
}

/* Store what option c (with optarg) says in opts. */
static void set_option(struct options *opts, int c)
{
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
	case OPT_FOLLOW:
		opts->follow = true;
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
	}
}

/* Note option c as given, for the rules. */
static void note_given(struct cmdline *cl, int c)
{
	for (size_t i = 0; i < N_RULES; i++)
		if (option_rules[i].id == c)
			cl->given |= 1u << i;
}

/*
 * Returns true to go on; false when there is nothing more to do, with the
 * exit status in *status: 0 after --help or --version, EXIT_USAGE after a
 * bad option.
 */
static bool parse_options(int argc, char **argv, struct options *opts,
			  struct cmdline *cl, int *status)
{
	int c;

	/* getopt's own messages take two lines; the contract wants one */
	opterr = 0;
	while (optind < argc) {
		int before = optind;

		if (cl->nargs > 0 && is_negative_number(argv[optind])) {
			cl->args[cl->nargs++] = argv[optind++];
			continue;
		}
		/* "+": stop at each argument, so options may come before and
		 * after it but values such as "-1" are seen in place */
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c == -1) {
			if (optind == before + 1 && strcmp(argv[before], "--") == 0) {
				while (optind < argc)
					cl->args[cl->nargs++] = argv[optind++];
				break;
			}
			if (optind < argc)
				cl->args[cl->nargs++] = argv[optind++];
			continue;
		}
		switch (c) {
		case 'h':
			usage(stdout);
			*status = 0;
			return false;
		case 'V':
			printf("atimectl %s\n", ATIMECTL_VERSION);
			*status = 0;
			return false;
		case '?':
		case ':':
			/* a long option or the end of a cluster: optind moved on */
			*status = option_error(c, argv[optind > before ? optind - 1 : before]);
			return false;
		default:
			set_option(opts, c);
			note_given(cl, c);
			break;
		}
	}
	return true;
}

/* A first argument that is no verb is a TARGET of "status". */
static int find_verb(struct cmdline *cl, const struct verb **ret)
{
	*ret = &verbs[0];
	if (cl->nargs == 0)
		return 0;
	for (size_t i = 0; i < N_VERBS; i++) {
		if (strcmp(cl->args[0], verbs[i].name) == 0) {
			*ret = &verbs[i];
			cl->nargs--;
			memmove(cl->args, cl->args + 1, (size_t) cl->nargs * sizeof(*cl->args));
			return 0;
		}
	}
	if (!target_spec_is_plausible(cl->args[0]))
		return unknown_verb(cl->args[0]);
	return 0;
}

/* Everything a verb can be refused for before it runs; 0 when none. */
static int check_verb(const struct cmdline *cl, const struct verb *verb)
{
	enum use use = cl->nargs > 0 ? verb->use_with_args : verb->use;
	int r;

	r = check_option_uses(cl->given, use);
	if (r == 0)
		r = check_exclusive(cl->given);
	if (r == 0)
		r = check_arg_count(verb, cl->nargs);
	return r;
}

static int run(int argc, char **argv)
{
	struct options opts = { 0 };
	struct cmdline cl = { 0 };
	const struct verb *verb;
	int r;

	cl.args = calloc((size_t) argc + 1, sizeof(*cl.args));
	if (!cl.args) {
		fprintf(stderr, "atimectl: out of memory\n");
		return 1;
	}
	if (!parse_options(argc, argv, &opts, &cl, &r))
		goto out;
	r = check_types(opts.types);
	if (r)
		goto out;

	/* a test hook, documented in atimectl(8): the table -F names */
	if (!opts.tab_file) {
		const char *env = getenv("ATIMECTL_MOUNTINFO");

		if (env && *env)
			opts.tab_file = env;
	}
	if (opts.list_targets) {
		if (cl.nargs > 0)
			r = usage_error("--list-targets takes no arguments");
		else
			r = list_targets(&opts);
		goto out;
	}

	r = find_verb(&cl, &verb);
	if (r == 0)
		r = check_verb(&cl, verb);
	if (r == 0)
		r = verb->run(&opts, cl.nargs, cl.args);
out:
	free(cl.args);
	return r;
}

int main(int argc, char **argv)
{
	return close_stdout(run(argc, argv));
}
