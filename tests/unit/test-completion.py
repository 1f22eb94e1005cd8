#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Bash completion of atimectl in a real interactive bash on a pty.

Mount points whose names hold shell code, quotes, $HOME, backslashes and
spaces must complete as themselves, quoted for the shell, and run nothing.
The mount table is a fixture ($ATIMECTL_MOUNTINFO).  After each TAB the
line is turned into printf '<%s>\\n' ... so bash itself shows the words it
would pass.

  test-completion.py ATIMECTL COMPLETION_FILE
"""
import os
import pty
import select
import shutil
import sys
import tempfile
import time

BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
# printed by PROMPT_COMMAND after each command; readline's redisplay of
# the prompt does not contain it
DONE = "--command-done--"


def mangle(path):
    """mountinfo escaping: space, tab, newline, backslash as octal"""
    return "".join("\\%03o" % ord(c) if c in " \t\n\\" else c for c in path)


class Shell:
    def __init__(self, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve("/bin/bash", ["bash", "--norc", "--noprofile", "-i"], env)
        self.buf = ""

    def send(self, text):
        os.write(self.fd, text.encode())

    def read_until(self, marker, timeout=20):
        end = time.time() + timeout
        while marker not in self.buf:
            left = end - time.time()
            if left <= 0:
                raise TimeoutError("no %r in %r" % (marker, self.buf[-500:]))
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    self.buf += os.read(self.fd, 4096).decode(errors="replace")
                except OSError:
                    break
        out, self.buf = self.buf.split(marker, 1)
        return out

    def command(self, line):
        self.send(line + "\n")
        return self.read_until(DONE)

    def complete(self, line):
        """Type line, TAB, then run it as printf arguments; the words."""
        self.send(line + "\t")
        time.sleep(0.5)
        # Ctrl-A: to the start of the line
        self.send("\x01show_args \n")
        try:
            out = self.read_until(DONE, timeout=5).replace("\r", "")
        except TimeoutError:
            # an open quote: bash waits for more; Ctrl-C and go on
            self.send("\x03")
            self.read_until(DONE)
            return None
        # the echoed command line, then one <word> per line
        return [bytes.fromhex(l[4:]).decode() for l in out.split("\n") if l.startswith("ARG:")]


def main():
    atimectl, completion = sys.argv[1], sys.argv[2]
    if not os.path.exists(BASH_COMPLETION):
        print("bash-completion is not installed")
        return 77
    tmp = tempfile.mkdtemp(prefix="atimectl-completion-")
    failures = 0
    try:
        pwned = os.path.join(tmp, "PWNED")
        names = {
            "a": "/media/u/a $(touch %s)" % pwned,
            "b": "/media/u/b `touch %s`" % pwned,
            "c": "/media/u/c'single",
            "d": '/media/u/d"double',
            "e": "/media/u/e$HOME",
            "f": "/media/u/f\\back\\slash",
            "g": "/media/u/g*?[glob]",
            "h": "/media/u/h;touch %s;" % pwned,
            "i": "/media/u/i\nnew line",
        }
        mi = os.path.join(tmp, "mountinfo")
        with open(mi, "w") as f:
            f.write("21 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n")
            for i, name in enumerate(names.values()):
                f.write("%d 21 8:%d / %s rw,relatime - ext4 /dev/sdb%d rw\n"
                        % (30 + i, 16 + i, mangle(name), i))
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        os.symlink(os.path.abspath(atimectl), os.path.join(bindir, "atimectl"))

        env = {
            "PATH": bindir + ":/usr/bin:/bin",
            "HOME": tmp,
            "TERM": "dumb",
            "INPUTRC": "/dev/null",
            "ATIMECTL_MOUNTINFO": mi,
            "ATIMECTL_PROC_SYS_FS": os.path.join(tmp, "no-proc"),
            "ATIMECTL_SYSFS_RELATIME": os.path.join(tmp, "no-sys"),
        }
        sh = Shell(env)
        sh.send("PS1='> '; PS2=''; PROMPT_COMMAND='printf \"%%s%%s\\n\" %s %s'\n"
                % (DONE[:5], DONE[5:]))
        sh.read_until(DONE)
        sh.command("source %s" % BASH_COMPLETION)
        sh.command("source %s" % os.path.abspath(completion))
        sh.command("cd %s" % tmp)
        # one line per word, in hex: newlines in names stay on one line
        sh.command("show_args() { local a; for a; do printf 'ARG:%s\\n' "
                   "\"$(printf %s \"$a\" | od -An -v -tx1 | tr -d ' \\n')\"; done; }")

        cases = [("atimectl set /media/u/%s" % k, ["atimectl", "set", v])
                 for k, v in names.items()]
        cases += [
            # an open quote is kept open and closed
            ("atimectl reset '/media/u/c", ["atimectl", "reset", names["c"]]),
            ('atimectl reset "/media/u/e', ["atimectl", "reset", names["e"]]),
            ("atimectl reset /media/u/a\\ ", ["atimectl", "reset", names["a"]]),
            ("atimectl reset /media/u/'h", ["atimectl", "reset", names["h"]]),
            # the default verb, and -F on the command line
            ("atimectl /media/u/f", ["atimectl", names["f"]]),
            ("atimectl -F %s status /media/u/g" % mi,
             ["atimectl", "-F", mi, "status", names["g"]]),
            # output options only where atimectl takes them
            ("atimectl status --js", ["atimectl", "status", "--json"]),
            ("atimectl explain --js", ["atimectl", "explain", "--json"]),
            ("atimectl check --js", ["atimectl", "check", "--json"]),
            ("atimectl check --inter", ["atimectl", "check", "--interval"]),
            ("atimectl check --interval 5", ["atimectl", "check", "--interval", "5min"]),
            ("atimectl check --interval 1d /media/u/f", ["atimectl", "check", "--interval", "1d", names["f"]]),
            ("atimectl set / 1h --qu", ["atimectl", "set", "/", "1h", "--quiet"]),
            ("atimectl global 1h --qu", ["atimectl", "global", "1h", "--quiet"]),
            ("atimectl global --qu", ["atimectl", "global", "--qu"]),
            ("atimectl che", ["atimectl", "check"]),
            ("atimectl global --js", ["atimectl", "global", "--json"]),
            ("atimectl set / --js", ["atimectl", "set", "/", "--js"]),
            ("atimectl reset --noh", ["atimectl", "reset", "--noh"]),
            ("atimectl apply --if", ["atimectl", "apply", "--if-mounted"]),
            ("atimectl global 1h --js", ["atimectl", "global", "1h", "--js"]),
            ("atimectl status --pa", ["atimectl", "status", "--pairs"]),
            ("atimectl global --pa", ["atimectl", "global", "--pa"]),
            # -t takes a value: what follows is the verb
            ("atimectl -t ext4 stat", ["atimectl", "-t", "ext4", "status"]),
            ("atimectl --types ext4 status --typ", ["atimectl", "--types", "ext4", "status", "--types"]),
            # types from /proc/filesystems, in a list, after "no"
            ("atimectl -t sysf", ["atimectl", "-t", "sysfs"]),
            ("atimectl -t noproc,sysf", ["atimectl", "-t", "noproc,sysfs"]),
            ("atimectl status --output-", ["atimectl", "status", "--output-all"]),
            ("atimectl status --notr", ["atimectl", "status", "--notruncate"]),
            # the MAJ:MIN column, with the colon typed or not
            ("atimectl -o TARGET,MAJ", ["atimectl", "-o", "TARGET,MAJ:MIN"]),
            ("atimectl -o +MAJ:", ["atimectl", "-o", "+MAJ:MIN"]),
            ("atimectl -o maj:", ["atimectl", "-o", "maj:MIN"]),
        ]
        for line, want in cases:
            got = sh.complete(line)
            status = "ok" if got == want else "FAIL"
            if got != want:
                failures += 1
            print("%s: %r -> %r%s" % (status, line, got,
                                        "" if got == want else ", expected %r" % (want,)))
        if os.path.exists(pwned):
            print("FAIL: completion ran code from a mount point name")
            failures += 1
        else:
            print("ok: no code from mount point names ran")
        sh.send("exit\n")
        os.waitpid(sh.pid, 0)
    finally:
        shutil.rmtree(tmp)
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
