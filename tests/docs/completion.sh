#!/usr/bin/env bash
# The bash completion of nfsfusectl, sourced into bash as bash-completion
# would: COMPREPLY for the first word, the commands, their arguments.
. "$(dirname "$0")/lib.sh"
COMP=${NFSFUSE_COMPLETION:-$SRC/contrib/bash-completion/nfsfusectl}
mnt=$WORK/mnt
mkdir -p "$mnt/sub" && touch "$mnt/afile" "$mnt/another"

# complete WORDS...: COMPREPLY, sorted, one a line, for the last word.
complete_words() {
	bash --norc --noprofile -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		[[ $(complete -p nfsfusectl) == *"-F _nfsfusectl"* ]] || exit 3
		_nfsfusectl nfsfusectl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$COMP" "$@"
}
expect() { # "expected lines" words...
	local want=$1 got
	shift
	got=$(complete_words "$@") || fail "completion of '$*' failed (status $?)"
	[[ $got == "$want" ]] || fail "completing '$*': expected [$want], got [$got]"
}

expect "list" nfsfusectl li
expect $'--help\n--version' nfsfusectl --
expect $'stats' nfsfusectl "$mnt" st
expect $'cache' nfsfusectl "$mnt" ca
expect $'cache\ndrop\niostat\nlocks\nquota\nset\nstats\ntrace' nfsfusectl "$mnt" ""
expect $'--json\n--prometheus' nfsfusectl "$mnt" stats --
expect $'--prometheus' nfsfusectl "$mnt" stats --p
expect $'acdirmax=\nacdirmin=\nacregmax=\nacregmin=\nactimeo=' nfsfusectl "$mnt" set ac
expect $'--group' nfsfusectl "$mnt" quota --
expect "root" nfsfusectl "$mnt" quota roo
expect "root" nfsfusectl "$mnt" quota --group roo
# Paths relative to the mount point, as nfsfusectl takes them.
expect $'afile\nanother' nfsfusectl "$mnt" cache a
expect "" nfsfusectl list x
# A directory when no nfsfuse mount matches.
expect "$mnt/sub" nfsfusectl "$mnt/s"
echo "PASS: completion"
