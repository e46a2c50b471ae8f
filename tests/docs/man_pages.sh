#!/usr/bin/env bash
# nfsfuse(8) and nfsfusectl(8) render with man and groff without a single
# warning, nfsfuse(8) documents every -o option the parser takes,
# nfsfusectl(8) every command nfsfusectl takes and every cache counter
# (each is a Prometheus metric).  A new option, command or counter
# without its paragraph fails here.
. "$(dirname "$0")/lib.sh"
[[ ${NFSFUSE_MAN_PAGES:-yes} == yes ]] || skip "scdoc is missing: the man pages were not built (contrib/install-deps.sh)"
command -v man >/dev/null || skip "man is not installed"
command -v groff >/dev/null || skip "groff is not installed"

for page in nfsfuse.8 nfsfusectl.8; do
	built=$BUILD/doc/$page
	[[ -s $built ]] || fail "$built was not built"
	# Warnings on, at two widths: a line that cannot be broken or an
	# unknown request shows up as output on stderr.
	for width in 80 60; do
		warn=$(MANWIDTH=$width LC_ALL=C.UTF-8 man --warnings -l "$built" 2>&1 >/dev/null) ||
			fail "man -l $page failed: $warn"
		[[ -z $warn ]] || fail "man --warnings -l $page (MANWIDTH=$width) warns: $warn"
	done
	warn=$(groff -man -ww -z -Tutf8 "$built" 2>&1) || fail "groff $page failed: $warn"
	[[ -z $warn ]] || fail "groff -ww $page warns: $warn"
	text=$(MANWIDTH=80 man -l "$built" 2>/dev/null)
	[[ $text == *NAME* && $text == *SYNOPSIS* && $text == *"EXIT STATUS"* ]] ||
		fail "$page lacks NAME, SYNOPSIS or EXIT STATUS"
done

# A term is documented when the page's source has it in bold ("*term*"),
# the way every option and command paragraph starts.
# (The sources are read whole first: grep -q would end a pipe early.)
sed 's/\\//g' "$SRC/doc/nfsfuse.8.scd" >"$WORK/nfsfuse.scd"
sed 's/\\//g' "$SRC/doc/nfsfusectl.8.scd" >"$WORK/nfsfusectl.scd"
documented() { # scd term
	grep -qF "*$2*" "$1"
}

# Every -o word: as the parser lists them, and, so that one added outside
# the tables is caught too, every word options.c compares an item with.
opts=$(
	"$NFSFUSE" --list-options
	grep -oE 'strcmp\(item, "[^"]+"\)' "$SRC/src/options.c" | sed -E 's/.*"(.*)".*/\1/'
	grep -oE '^[[:space:]]*\{ "[a-z0-9_]+", OPT_' "$SRC/src/options.c" | sed -E 's/.*"(.*)".*/\1/'
)
[[ $(printf '%s\n' "$opts" | sort -u | wc -l) -ge 40 ]] || fail "too few options found: $opts"
missing=()
for o in $(printf '%s\n' "$opts" | sort -u); do
	documented "$WORK/nfsfuse.scd" "$o" || missing+=("$o")
done
[[ ${#missing[@]} -eq 0 ]] || fail "options missing from nfsfuse(8) (doc/nfsfuse.8.scd): ${missing[*]}"

# Every command: nfsfusectl's list and its table in the source.
cmds=$(
	"$NFSFUSECTL" --list-commands
	grep -oE '^[[:space:]]*\{ "[a-z]+", "' "$SRC/tools/nfsfusectl.c" | sed -E 's/.*\{ "([a-z]+)".*/\1/'
)
[[ $(printf '%s\n' "$cmds" | sort -u | wc -l) -ge 9 ]] || fail "too few commands found: $cmds"
missing=()
for c in $(printf '%s\n' "$cmds" | sort -u); do
	grep -qE "^\*$c\*" "$WORK/nfsfusectl.scd" || missing+=("$c")
done
[[ ${#missing[@]} -eq 0 ]] || fail "commands missing from nfsfusectl(8) (doc/nfsfusectl.8.scd): ${missing[*]}"

# Every cache counter, which is also the metric nfsfuse_cache_NAME_total.
counters=$(grep -oE '^[[:space:]]*X\([a-z0-9_]+\)' "$SRC/src/base/stats.h" | sed -E 's/.*\((.*)\)/\1/')
[[ $(printf '%s\n' "$counters" | wc -l) -ge 20 ]] || fail "too few cache counters found"
missing=()
for c in $counters; do
	documented "$WORK/nfsfusectl.scd" "$c" || missing+=("$c")
done
[[ ${#missing[@]} -eq 0 ]] || fail "cache counters missing from nfsfusectl(8): ${missing[*]}"
echo "PASS: man_pages ($(printf '%s\n' "$opts" | sort -u | wc -l) options, $(printf '%s\n' "$cmds" | sort -u | wc -l) commands, $(printf '%s\n' "$counters" | wc -l) counters)"
