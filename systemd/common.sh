# shellcheck shell=bash disable=SC2034  # the variables are used by the scripts that source it
# Shared by install.sh and uninstall.sh (sourced, not run): the paths, the user and helpers.
# COMPANION_ROOT puts every system path under a sandbox directory (the tests use it);
# it is empty on a real Pi.

ROOT="${COMPANION_ROOT:-}"
SERVICE=companion.service
APP_USER=companion
APP_GROUPS=(gpio video render input audio)
PREFIX="$ROOT/opt/table-companion"
VENV="$PREFIX/venv"
STAMP="$PREFIX/installed-from.sha256"
UNIT="$ROOT/etc/systemd/system/$SERVICE"
CONFIG_DIR="$ROOT/etc/table-companion"
MARKERS="$CONFIG_DIR/install-state"  # what this installer added, for uninstall.sh
STATE_DIR="$ROOT/var/lib/table-companion"
CACHE_DIR="$ROOT/var/cache/table-companion"
LINK="$ROOT/usr/local/bin/companion"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="$(dirname "$HERE")"

say() { printf '%s: %s\n' "$PROGRAM" "$*"; }
fail() { printf '%s: error: %s\n' "$PROGRAM" "$*" >&2; exit 2; }

# Run as root: re-run through sudo when started as another user.
become_root() {
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || fail "run as root (sudo is not installed)"
        exec sudo -- "$0" "$@"
    fi
}

# The Pi's model from the device tree, e.g. "Raspberry Pi 4 Model B Rev 1.5" ("" if none).
pi_model() {
    local file
    for file in "$ROOT/proc/device-tree/model" "$ROOT/sys/firmware/devicetree/base/model"; do
        if [ -r "$file" ]; then
            tr -d '\0' <"$file"
            return
        fi
    done
}

# The kernel command line file of Raspberry Pi OS (Bookworm moved it to /boot/firmware).
cmdline_file() {
    if [ -e "$ROOT/boot/firmware/cmdline.txt" ]; then
        echo "$ROOT/boot/firmware/cmdline.txt"
    else
        echo "$ROOT/boot/cmdline.txt"
    fi
}

marked() { [ -e "$MARKERS/$1" ]; }
