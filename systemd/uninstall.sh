#!/usr/bin/env bash
# Remove what systemd/install.sh installed:
#
#   sudo systemd/uninstall.sh [--purge]
#
# Stops and disables companion.service and removes the unit, /opt/table-companion and the
# /usr/local/bin/companion link, and takes consoleblank=0 off the kernel command line if
# install.sh put it there. The games, scores and taught decks (/var/lib/table-companion) and
# /etc/table-companion/config.toml are kept unless --purge, which also removes them, the
# cache and the `companion` user if install.sh created it. apt packages stay installed.
set -euo pipefail

PROGRAM=uninstall.sh
# shellcheck source=systemd/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PURGE=no

parse_arguments() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --purge) PURGE=yes ;;
            -h | --help) echo "usage: sudo systemd/uninstall.sh [--purge]"; exit 0 ;;
            *) fail "unknown option '$1' (usage: sudo systemd/uninstall.sh [--purge])" ;;
        esac
        shift
    done
}

remove_service() {
    if systemctl is-active --quiet "$SERVICE"; then
        systemctl stop "$SERVICE"
        say "stopped $SERVICE"
    fi
    if systemctl is-enabled --quiet "$SERVICE"; then
        systemctl disable "$SERVICE"
        say "disabled $SERVICE"
    fi
    if [ -e "$UNIT" ]; then
        rm -f "$UNIT"
        systemctl daemon-reload
        say "removed $UNIT"
    fi
}

remove_program() {
    if [ -L "$LINK" ] && [ "$(readlink "$LINK")" = "$VENV/bin/companion" ]; then
        rm -f "$LINK"
    fi
    if [ -e "$PREFIX" ]; then
        rm -rf "$PREFIX"
        say "removed $PREFIX"
    fi
}

restore_console_blanking() {
    local cmdline
    cmdline="$(cmdline_file)"
    if marked consoleblank && [ -e "$cmdline" ]; then
        sed -i '1 s/ consoleblank=0//' "$cmdline"
        rm -f "$MARKERS/consoleblank"
        say "took consoleblank=0 off $cmdline (reboot to apply)"
    fi
}

purge() {
    if [ "$PURGE" != yes ]; then
        say "kept $STATE_DIR (games, scores, decks) and $CONFIG_DIR: --purge removes them"
        return
    fi
    if marked user && getent passwd "$APP_USER" >/dev/null; then
        userdel "$APP_USER"
        say "removed the user $APP_USER"
    fi
    rm -rf "$STATE_DIR" "$CACHE_DIR" "$CONFIG_DIR"
    say "removed $STATE_DIR, $CACHE_DIR and $CONFIG_DIR"
}

main() {
    parse_arguments "$@"
    become_root "$@"
    remove_service
    remove_program
    restore_console_blanking
    purge
    [ -d "$MARKERS" ] && rmdir --ignore-fail-on-non-empty "$MARKERS"
    say "done"
}

main "$@"
