/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unit_path_escape() against what systemd-escape --path prints, and the
 * Environment= quoting.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit-escape.h"

static int failures;

static void check(const char *what, const char *got, const char *want)
{
	if ((got == NULL) != (want == NULL) || (got && strcmp(got, want) != 0)) {
		fprintf(stderr, "FAIL %s: got '%s', want '%s'\n", what,
			got ? got : "(null)", want ? want : "(null)");
		failures++;
	}
}

static void path(const char *in, const char *want)
{
	char *got = unit_path_escape(in);

	check(in, got, want);
	if (!got && want == NULL && errno != EINVAL) {
		fprintf(stderr, "FAIL %s: errno %d, want EINVAL\n", in, errno);
		failures++;
	}
	free(got);
}

static void env(const char *in, const char *want)
{
	char *got = unit_env_quote("V", in);

	check(in, got, want);
	free(got);
}

static void unpercent(const char *in, const char *want)
{
	char *got = unit_unpercent(in);

	check(in, got, want);
	free(got);
}

int main(void)
{
	/* expected values from systemd-escape --path (systemd 254) */
	path("/", "-");
	path("//", "-");
	path("/.", "-");
	path("/srv/cache", "srv-cache");
	path("//srv//cache/", "srv-cache");
	path("/srv/./cache", "srv-cache");
	path("/srv/my-data", "srv-my\\x2ddata");
	path("/srv/my data", "srv-my\\x20data");
	path("/.dotdir", "\\x2edotdir");
	path("/a/.b", "a-.b");
	path("/x/\xc3\xa4", "x-\\xc3\\xa4");
	path("/run/atimectl-tests/sd-unit", "run-atimectl\\x2dtests-sd\\x2dunit");
	path("/a\\b", "a\\x5cb");
	path("/a:b_c.d", "a:b_c.d");
	path("/a/b@c", "a-b\\x40c");
	path("/%", "\\x25");
	path("/home/user.name/x", "home-user.name-x");
	path("/a/../b", NULL);
	path("/..", NULL);
	path("relative", NULL);
	path("", NULL);

	env("defaults,x-relatime-interval=2h", "\"V=defaults,x-relatime-interval=2h\"");
	env("a b", "\"V=a b\"");
	env("q=\"x\",b=\\", "\"V=q=\\\"x\\\",b=\\\\\"");
	env("p=50%", "\"V=p=50%%\"");
	env("d=$HOME", "\"V=d=$HOME\"");
	env("tab\there", NULL);
	env("", "\"V=\"");

	unpercent("a%%b", "a%b");
	unpercent("plain", "plain");
	unpercent("%i", NULL);
	unpercent("x%", NULL);

	if (unit_name_chars_valid("srv-my\\x2ddata.mount") != 1 ||
	    unit_name_chars_valid("bad name.mount") != 0 ||
	    unit_name_chars_valid("") != 0) {
		fprintf(stderr, "FAIL unit_name_chars_valid\n");
		failures++;
	}

	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures ? 1 : 0;
}
