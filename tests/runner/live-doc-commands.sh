# SPDX-License-Identifier: LGPL-2.1-or-later
# Every command shown in scmp-run(1) (a "$ " line of a literal block) and
# every scmp-run command of README.md is run as it is written, as an
# unprivileged user in a directory of its own, and must succeed (or end
# with the status the text says). The list below classifies each command;
# a command of the documents that the list does not name, or a listed one
# the documents no longer show, fails the test. Output the man page shows
# for a command is compared where it is exact ("same").
# Environment: SCMP_RUN, SRCDIR. Needs root (to become the test user).

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the documented commands run as an unprivileged user: needs root"
	exit 0
fi
. "$SRCDIR/tests/tap.sh"

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL
TAB=$(printf '\t')
USR=nobody
GRP=$(id -gn nobody)

# MODE<TAB>COMMAND: "run N" (exit status N), "same N" (status N, and the
# output is the one the document shows), "root N" (run by root, without
# the leading sudo), "oci N" (needs OCI support and Podman's profile),
# "skip WHY" (not runnable here). The README's --report under the learned
# tar profile is there to show what else tar needs: it fails (status 2)
# and the report names the calls.
cat >"$TAP_TMP/table" <<'EOT'
skip ./net-less.ini is an illustration; the document does not show it	scmp-run --report -p ./net-less.ini python3 -c 'import socket; socket.create_connection(("127.0.0.1", 9))'
skip ./daemon.ini is an illustration; the document does not show it	sudo dmesg | scmp-run -p ./daemon.ini --explain-audit -
same 0	cat no-mkdir.ini
run 159	scmp-run -p ./no-mkdir.ini mkdir new
skip shows the status of the line before, checked there	echo $?
root 0	sudo dmesg | grep type=1326
same 0	scmp-run --resolve 83
same 0	scmp-run -p ./no-mkdir.ini --explain mkdir
root 0	sudo dmesg | scmp-run -p ./no-mkdir.ini --explain-audit -
run 159	scmp-run --report -p ./no-mkdir.ini mkdir new
run 0	scmp-run --learn tar.ini tar czf notes.tgz notes.txt
run 0	grep -v '^;@' tar.ini | sed -n '/\[allow\]/,$p'
run 0	scmp-run -p ./tar.ini --check
run 0	scmp-run -p ./tar.ini tar czf notes.tgz notes.txt
run 0	scmp-run -p ./web.ini --check
run 0	scmp-run -p ./web.ini --export-pfc - | less
run 0	scmp-run -p ./web.ini --explain openat AT_FDCWD 0 O_WRONLY
run 0	scmp-run -p ./web.ini --target-arch x86 --explain socket AF_INET
skip needs the host web1	ssh web1 cat /etc/scmp-run/profiles/web.ini | scmp-run -p - --check
run 0	scmp-run -p no-network -- sh -c 'ls -l / | wc -l'
run 0	scmp-run -p untrusted-tool -- sort -o sorted.txt words.txt
run 0	scmp-run -p ./web.ini --target-arch aarch64 --export-bpf web.bpf
run 0	echo $(( $(stat -c %s web.bpf) / 8 )) instructions
oci 0	scmp-run -p /usr/share/containers/seccomp.json -- ls -l /
oci 0	scmp-run --import-oci /usr/share/containers/seccomp.json | less
oci 0	scmp-run -p net-daemon --export-oci net-daemon.json
skip installs packages and builds the tree	scripts/bootstrap run -- sh -c 'ls -l / | wc -l'
skip installs packages and builds the tree	scripts/bootstrap test
run 0	build/src/scmp-run -p ./my.ini --check
run 0	build/src/scmp-run -p ./my.ini --explain socket AF_NETLINK
run 0	build/src/scmp-run -p ./my.ini -- ls -l /
oci 0	build/src/scmp-run -p /usr/share/containers/seccomp.json -- ls -l /
oci 0	build/src/scmp-run -p profiles/net-daemon.ini --export-oci net-daemon.json
skip needs podman and a container image	podman run --security-opt seccomp=net-daemon.json debian:12 sh -c 'id'
run 0	build/src/scmp-run --learn tar.ini tar czf notes.tgz notes.txt
run 0	build/src/scmp-run -p ./tar.ini --check
run 0	build/src/scmp-run -p ./tar.ini tar czf notes.tgz notes.txt
run 2	build/src/scmp-run --report -p ./tar.ini tar xzf notes.tgz
EOT

# The commands of the man page: "$ " lines of literal blocks, each with the
# lines shown after it (its output) in man/N.shown. README: the lines of
# its sh blocks that run scmp-run, without their comments.
chmod 755 "$TAP_TMP"
mkdir -m 755 "$TAP_TMP/bin" "$TAP_TMP/profiles"
cp "$SCMP_RUN" "$TAP_TMP/bin/scmp-run"
cp "$SRCDIR"/profiles/*.ini "$TAP_TMP/profiles/"
chmod 644 "$TAP_TMP"/profiles/*.ini
for d in man readme; do
	mkdir -m 755 "$TAP_TMP/$d"
done
awk -v dir="$TAP_TMP/man" '
	/^```/ { inb = !inb; cur = ""; next }
	inb && /^\$ / { n++; cur = dir "/" n ".shown"; printf "" >cur
		print n "\t" substr($0, 3) >(dir "/list"); next }
	inb && cur != "" { print >cur }
' "$SRCDIR/docs/scmp-run.1.scd"
awk '/^```sh/ { inb = 1; next } /^```/ { inb = 0; next }
	inb && /scmp-run|bootstrap|podman/ { sub(/[ \t]+#.*$/, ""); n++; print n "\t" $0 }
' "$SRCDIR/README.md" >"$TAP_TMP/readme/list"

# Both lists against the table, in both directions.
cut -f2- "$TAP_TMP/man/list" "$TAP_TMP/readme/list" | sort -u >"$TAP_TMP/shown"
cut -f2- "$TAP_TMP/table" | sort -u >"$TAP_TMP/listed"
is "$(comm -23 "$TAP_TMP/shown" "$TAP_TMP/listed")" "" \
	"every command the documents show is in this test's list"
is "$(comm -13 "$TAP_TMP/shown" "$TAP_TMP/listed")" "" \
	"every command of this test's list is still in the documents"

# Fixtures: what the examples take as given, in each directory.
# no-mkdir.ini is the output the man page shows for 'cat no-mkdir.ini'.
n=$(awk -F"$TAB" '$2 == "cat no-mkdir.ini" { print $1 }' "$TAP_TMP/man/list")
cp "$TAP_TMP/man/$n.shown" "$TAP_TMP/man/no-mkdir.ini"
cp "$SRCDIR/profiles/net-daemon.ini" "$TAP_TMP/man/web.ini"
printf 'pear\napple\nfig\n' >"$TAP_TMP/man/words.txt"
sed -n '/^```ini/,/^```/p' "$SRCDIR/README.md" | sed '1d;$d' >"$TAP_TMP/readme/my.ini"
mkdir -p "$TAP_TMP/readme/build/src"
ln -s "$TAP_TMP/bin/scmp-run" "$TAP_TMP/readme/build/src/scmp-run"
cp -r "$TAP_TMP/profiles" "$TAP_TMP/readme/profiles"
for d in man readme; do
	echo "notes" >"$TAP_TMP/$d/notes.txt"
	chmod 644 "$TAP_TMP/$d"/*.*
	chown -R "$USR:$GRP" "$TAP_TMP/$d"
done
# read by root too (the kernel log examples): trusted as root's own
chown root:root "$TAP_TMP/man/no-mkdir.ini"
oci=no
"$SCMP_RUN" --help | grep -q -- --import-oci && [ -r /usr/share/containers/seccomp.json ] && oci=yes

# doc_run DIR CMD [USER]: run CMD with sh in DIR as USER (default the test
# user), the installed profiles on the search path and scmp-run on PATH;
# the status in RC (read by status_is)
# shellcheck disable=SC2034
doc_run() {
	_u=${3:-$USR}
	RC=0
	(cd "$TAP_TMP/$1" && env -i PATH="$TAP_TMP/bin:$PATH" HOME="$TAP_TMP/$1" LC_ALL=C \
		SCMP_RUN_PROFILE_PATH="$TAP_TMP/profiles" \
		setpriv --reuid="$_u" --regid="$(id -g "$_u")" --clear-groups \
		timeout 60 sh -c "$2") >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

for d in man readme; do
	while IFS="$TAB" read -r n cmd; do
		mode=$(C=$cmd awk -F"$TAB" '$2 == ENVIRON["C"] { print $1; exit }' "$TAP_TMP/table")
		want=${mode#* }
		case $mode in
		skip*)
			skip "$d: $cmd: $want"
			continue
			;;
		oci*)
			if [ "$oci" = no ]; then
				skip "$d: $cmd: no OCI support in this build or no Podman profile"
				continue
			fi
			doc_run "$d" "$cmd"
			;;
		root*) doc_run "$d" "${cmd#sudo }" root ;;
		*) doc_run "$d" "$cmd" ;;
		esac
		status_is "$want" "$d: $cmd: exit $want"
		if [ "${mode%% *}" = same ]; then
			is "$(cat "$OUT")" "$(cat "$TAP_TMP/$d/$n.shown")" "$d: $cmd: the output shown"
		fi
		case $cmd in
		"sudo dmesg | grep type=1326")
			if grep 'comm="mkdir"' "$OUT" | grep 'uid=65534 ' | grep -q 'syscall=83 '; then
				ok 0 "$d: the kernel logged the killed mkdir"
				mkdir_logged=yes
			else
				skip "$d: no audit record of the kill in the kernel log (rate limit or no audit)"
				mkdir_logged=no
			fi
			;;
		"sudo dmesg | scmp-run -p ./no-mkdir.ini --explain-audit -")
			# the kernel's printk rate limit drops records when other
			# tests flood the log at the same time
			if [ "${mkdir_logged:-no}" = yes ]; then
				like "$OUT" "decision: kill-process by ./no-mkdir.ini:5" \
					"$d: --explain-audit names the rule that killed mkdir"
			else
				skip "$d: the kernel log held no record of the killed mkdir"
			fi
			;;
		"build/src/scmp-run --report -p ./tar.ini tar xzf notes.tgz")
			like "$ERR" "scmp-run: summary: " "$d: --report summed up what tar was denied"
			;;
		"scmp-run --report -p ./no-mkdir.ini mkdir new")
			like "$ERR" "mkdir(\"new\", 0777) -> kill-process [x86_64 83]" \
				"$d: --report names the killed call"
			;;
		esac
	done <"$TAP_TMP/$d/list"
done

# What the examples promise beyond their exit status
is "$(cat "$TAP_TMP/man/sorted.txt")" "$(printf 'apple\nfig\npear')" \
	"man: untrusted-tool sorted the file into sorted.txt"
run test -d "$TAP_TMP/man/new"
status_is 1 "man: mkdir under no-mkdir.ini created nothing"
for f in man/notes.tgz man/web.bpf readme/notes.tgz readme/notes.txt; do
	run test -s "$TAP_TMP/$f"
	status_is 0 "$f was written"
done
if [ "$oci" = yes ]; then
	run python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TAP_TMP/man/net-daemon.json"
	status_is 0 "man: net-daemon.json is JSON"
fi

done_testing
