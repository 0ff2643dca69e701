#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `meson install --destdir` into a temporary directory: the files land where
# they should, the installed binary runs an installed profile by name, and
# the installed man pages render.
set -u
: "${BUILDDIR:?}"
scdoc_found=${SCDOC_FOUND:-true}

. "$SRCDIR/tests/tap.sh"
tmp=$TAP_TMP
dest=$tmp/dest
# one installed file matching a path pattern (relative to the destdir)
find_one() {
	(cd "$dest" && find . -path "./$1" -type f | head -1 | sed 's|^\./|/|')
}

# meson test rebuilds only what the tests need; the install needs all
if meson install -C "$BUILDDIR" --destdir "$dest" --quiet >"$tmp/log" 2>&1; then
	ok 0 "meson install --destdir"
else
	ok 1 "meson install --destdir"
	sed 's/^/# /' "$tmp/log"
fi

bin=$(find_one '*/bin/scmp-run')
[ -n "$bin" ] && [ -x "$dest$bin" ]
ok $? "binary installed: ${bin:-none}"

profile=$(find_one '*/share/scmp-run/profiles/*.ini')
[ -n "$profile" ]
ok $? "sample profiles installed: $(find "$dest" -path '*/share/scmp-run/profiles/*.ini' | wc -l)"
profdir=$(dirname "$dest${profile:-/none/x}")

man1=$(find_one '*/man/man1/scmp-run.1')
man5=$(find_one '*/man/man5/scmp-run.ini.5')
if [ "$scdoc_found" = true ]; then
	[ -n "$man1" ] && grep -q '^\.TH' "$dest$man1"
	ok $? "scmp-run(1) installed: ${man1:-none}"
	[ -n "$man5" ] && grep -q '^\.TH' "$dest$man5"
	ok $? "scmp-run.ini(5) installed: ${man5:-none}"
else
	skip "scdoc not found at configure time: no man pages"
	skip "scdoc not found at configure time: no man pages"
fi

bash_c=$(find_one '*/bash-completion/completions/scmp-run')
zsh_c=$(find_one '*/zsh/site-functions/_scmp-run')
fish_c=$(find_one '*/fish/vendor_completions.d/scmp-run.fish')
# installed iff its meson option is on
for sh in bash zsh fish; do
	case $sh in
	bash) f=$bash_c want=${BASH_COMPLETIONS:-true} ;;
	zsh) f=$zsh_c want=${ZSH_COMPLETIONS:-true} ;;
	fish) f=$fish_c want=${FISH_COMPLETIONS:-true} ;;
	esac
	if [ "$want" = true ]; then
		[ -n "$f" ]
		ok $? "$sh completion installed: ${f:-none}"
	else
		[ -z "$f" ]
		ok $? "$sh completion not installed (-D$sh-completions=false)"
	fi
done

# The installed binary finds the installed profiles by name.
name=$(basename "${profile:-none.ini}" .ini)
SCMP_RUN_PROFILE_PATH=$profdir "$dest$bin" --list-profiles >"$tmp/profiles" 2>&1
grep -qxF "$name" "$tmp/profiles"
ok $? "installed binary lists the installed profile '$name'"

r=0
for f in "$profdir"/*.ini; do
	p=$(basename "$f" .ini)
	SCMP_RUN_PROFILE_PATH=$profdir "$dest$bin" -p "$p" --check >"$tmp/check" 2>&1 ||
		{ echo "# profile '$p' rejected:"; sed 's/^/#   /' "$tmp/check"; r=1; }
done
[ -n "$profile" ] && [ $r -eq 0 ]
ok $? "every installed profile passes --check by name"

# Run a real command under an installed profile, by name.
if [ -f "$profdir/untrusted-tool.ini" ]; then
	# As root, the uid-0 guard wants root named: a profile of the same
	# name first on the path includes the installed one and adds it.
	path=$profdir
	if [ "$(id -u)" = 0 ]; then
		mkdir -p "$tmp/as-root" &&
			printf '[profile]\ninclude = %s\n\n[credentials]\nuser = root\n' \
				"$profdir/untrusted-tool.ini" >"$tmp/as-root/untrusted-tool.ini"
		path=$tmp/as-root:$profdir
	fi
	out=$(SCMP_RUN_PROFILE_PATH=$path "$dest$bin" -p untrusted-tool -- sh -c 'echo sandboxed' \
		2>"$tmp/err")
	r=$?
	[ $r -eq 0 ] && [ "$out" = sandboxed ]
	ok $? "installed binary runs 'sh -c echo' under untrusted-tool (status $r, output '$out')"
	sed 's/^/# /' "$tmp/err"
else
	skip "no untrusted-tool.ini installed"
fi

# Render the man pages.
if [ "$scdoc_found" != true ] || [ -z "$man1" ] || [ -z "$man5" ]; then
	skip "no man pages to render"
	skip "no man pages to render"
elif ! command -v groff >/dev/null 2>&1; then
	skip "groff is not installed: .TH checked above"
	skip "groff is not installed: .TH checked above"
else
	for page in "$man1" "$man5"; do
		# -ww: all warnings; -z: only diagnose
		warn=$(groff -man -Tutf8 -ww -z "$dest$page" 2>&1)
		groff -man -Tutf8 -P -cbou "$dest$page" 2>/dev/null >"$tmp/page"
		[ -z "$warn" ] && grep -q '^NAME' "$tmp/page" && grep -q 'scmp-run' "$tmp/page" &&
			[ "$(wc -l <"$tmp/page")" -gt 50 ]
		ok $? "$(basename "$page") renders without warnings ($(wc -l <"$tmp/page") lines)"
		[ -n "$warn" ] && printf '%s\n' "$warn" | sed 's/^/# /'
	done
fi
done_testing
