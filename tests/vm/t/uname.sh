# The guest runs the project's kernel, not some other one.
. /usr/lib/atimectl-tests/lib.sh
case $(uname -r) in
*-atime) ;;
*) die "uname -r is '$(uname -r)', expected the project's LOCALVERSION -atime" ;;
esac
