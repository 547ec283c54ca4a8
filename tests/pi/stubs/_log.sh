# shellcheck shell=bash
# Sourced by every stub: log the command line to $STUB_LOG; state files live in $STUB_STATE.
printf '%s\n' "$(basename "$0") $*" >>"$STUB_LOG"
mkdir -p "$STUB_STATE"
touch "$STUB_STATE/passwd" "$STUB_STATE/group" "$STUB_STATE/members" "$STUB_STATE/dpkg"
