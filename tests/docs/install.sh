#!/usr/bin/env bash
# `meson install --destdir` puts the two programs in bindir, both man
# pages in mandir/man8 (where `man` finds them by name), the bash
# completion in bash-completion's completionsdir, the README and its
# examples in datadir/doc/nfsfuse; both programs show the project's version.
. "$(dirname "$0")/lib.sh"
command -v meson >/dev/null || skip "meson is not installed"
dest=$WORK/dest
out=$(meson install -C "$BUILD" --destdir "$dest" --no-rebuild 2>&1) || fail "meson install failed: $out"

prefix=${NFSFUSE_PREFIX:?}
under() { # DIR: an install directory, inside the destdir
	case $1 in
	/*) echo "$dest$1" ;;
	*) echo "$dest$prefix/$1" ;;
	esac
}
bindir=$(under "${NFSFUSE_BINDIR:-bin}")
mandir=$(under "${NFSFUSE_MANDIR:-share/man}")
docdir=$(under "${NFSFUSE_DATADIR:-share}")/doc/nfsfuse
compdir=$(under "${NFSFUSE_COMPLETIONSDIR:-share/bash-completion/completions}")

version=$(meson introspect --projectinfo "$BUILD" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
for prog in nfsfuse nfsfusectl; do
	[[ -x $bindir/$prog ]] || fail "$prog is not installed in $bindir"
	got=$("$bindir/$prog" --version) || fail "$prog --version failed"
	[[ $got == "$prog $version" ]] || fail "$prog --version says '$got', not '$prog $version'"
done

if [[ ${NFSFUSE_MAN_PAGES:-yes} == yes ]]; then
	for page in nfsfuse nfsfusectl; do
		[[ -s $mandir/man8/$page.8 ]] || fail "$page.8 is not installed in $mandir/man8"
		# Found by name in the installed tree, as `man 8 nfsfuse` will.
		text=$(MANWIDTH=80 man -M "$mandir" 8 "$page" 2>&1) || fail "man -M finds no $page(8): $text"
		[[ $text == *"$page - "* ]] || fail "the installed $page(8) does not render its NAME: $text"
	done
else
	fail "scdoc is missing: no man pages were installed (contrib/install-deps.sh installs it)"
fi

[[ -f $compdir/nfsfusectl ]] || fail "the bash completion is not in $compdir"
cmp -s "$compdir/nfsfusectl" "$SRC/contrib/bash-completion/nfsfusectl" ||
	fail "the installed completion differs from contrib/bash-completion/nfsfusectl"
if pkg-config --exists bash-completion 2>/dev/null; then
	want=$(pkg-config --variable=completionsdir --define-variable=datadir="$prefix/${NFSFUSE_DATADIR:-share}" bash-completion)
	[[ $compdir == "$dest$want" ]] || fail "completion in $compdir, bash-completion looks in $want"
fi

[[ -f $docdir/README.md ]] || fail "README.md is not in $docdir"
for f in fstab mnt-data.mount mnt-data.automount nfsfuse-textfile.sh; do
	[[ -f $docdir/examples/$f ]] || fail "example $f is not in $docdir/examples"
done
[[ -x $docdir/examples/nfsfuse-textfile.sh ]] || fail "nfsfuse-textfile.sh is not executable"
# Nothing else lands outside the prefix (fstab, /etc, ...).
stray=$(cd "$dest" && find . -type f | grep -v "^\.$prefix/" || true)
[[ -z $stray ]] || fail "installed outside $prefix: $stray"
echo "PASS: install ($(cd "$dest" && find . -type f | wc -l) files)"
