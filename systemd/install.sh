#!/usr/bin/env bash
# Install the table companion as a service on Raspberry Pi OS (Bookworm or later, 64-bit),
# on a Raspberry Pi 4 or 5, from this checkout:
#
#   sudo systemd/install.sh [--no-start]
#
# Idempotent: run it again after a `git pull` to update; what is already in place is left
# alone ("unchanged"), so a second run changes nothing. Undo with systemd/uninstall.sh.
# What it does: apt packages, the `companion` user in the gpio/video/render/input/audio
# groups, a venv in /opt/table-companion with --system-site-packages (so apt's picamera2,
# libcamera and lgpio import), the project, a default /etc/table-companion/config.toml,
# consoleblank=0 on the kernel command line, and companion.service enabled and started.
set -euo pipefail

PROGRAM=install.sh
# shellcheck source=systemd/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

APT_PACKAGES=(
    python3-venv python3-picamera2 python3-lgpio  # venv; camera (with libcamera); GPIO
    libgl1-mesa-dri libegl1 libgles2 libgbm1 libdrm2  # Kivy's SDL2 on KMS/DRM with the V3D GPU
    libmtdev1 espeak-ng  # touch input; the spoken calls
)
START=yes
REBOOT_NEEDED=no
UNIT_CHANGED=no
PROJECT_CHANGED=no

usage() { echo "usage: sudo systemd/install.sh [--no-start]"; }

parse_arguments() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --no-start) START=no ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; fail "unknown option '$1'" ;;
        esac
        shift
    done
}

check_machine() {
    local model codename version architecture
    model="$(pi_model)"
    case "$model" in
        "Raspberry Pi 4"* | "Raspberry Pi 5"*)  # also the Pi 400 and Pi 500
            say "machine: $model" ;;
        "Raspberry Pi"*) say "warning: $model is not tested (Pi 4 and Pi 5 are); going on" ;;
        *) fail "this is not a Raspberry Pi (device-tree model: '${model:-none}')" ;;
    esac
    [ -r "$ROOT/etc/os-release" ] || fail "$ROOT/etc/os-release is missing: which OS is this?"
    # shellcheck source=/dev/null
    codename="$(. "$ROOT/etc/os-release" && echo "${VERSION_CODENAME:-}")"
    # shellcheck source=/dev/null
    version="$(. "$ROOT/etc/os-release" && echo "${VERSION_ID:-0}")"
    version="${version%%.*}"
    if ! [[ "$version" =~ ^[0-9]+$ ]] || [ "$version" -lt 12 ]; then
        fail "Raspberry Pi OS Bookworm (12) or later is needed, this is '${codename:-unknown}'"
    fi
    architecture="$(dpkg --print-architecture)"
    if [ "$architecture" != arm64 ]; then
        fail "the 64-bit Raspberry Pi OS (arm64) is needed, this is $architecture"
    fi
}

install_packages() {
    local missing=() package
    for package in "${APT_PACKAGES[@]}"; do
        if [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != "install ok installed" ]; then
            missing+=("$package")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "unchanged: apt packages"
        return
    fi
    say "installing apt packages: ${missing[*]}"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

create_user() {
    local group member
    for group in "${APP_GROUPS[@]}"; do
        getent group "$group" >/dev/null || groupadd --system "$group"
    done
    if ! getent passwd "$APP_USER" >/dev/null; then
        useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "table companion" "$APP_USER"
        mkdir -p "$MARKERS" && touch "$MARKERS/user"
        say "created the user $APP_USER"
    fi
    member=" $(id -nG "$APP_USER") "
    for group in "${APP_GROUPS[@]}"; do
        if [[ "$member" != *" $group "* ]]; then
            usermod -aG "$group" "$APP_USER"
            say "added $APP_USER to the group $group"
        fi
    done
}

# What pip installs from the checkout, and a fingerprint of it and of the constraints.
PROJECT_FILES=(pyproject.toml README.md companion vision hardware ui)

source_fingerprint() {
    (cd "$SOURCE" && find "${PROJECT_FILES[@]}" systemd/pi-constraints.txt -type f \
        ! -name '*.pyc' ! -path '*/__pycache__/*' -print0 | sort -z | xargs -0 sha256sum) |
        sha256sum | cut -d' ' -f1
}

install_project() {
    local fingerprint
    if ! grep -qs '^include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
        rm -rf "$VENV" "$STAMP"
        python3 -m venv --system-site-packages "$VENV"
        say "created the venv $VENV (with the system site packages)"
    fi
    fingerprint="$(source_fingerprint)"
    if [ "$(cat "$STAMP" 2>/dev/null)" = "$fingerprint" ]; then
        say "unchanged: the project in $VENV"
        return
    fi
    # Built from a copy, so that no root-owned build files land in the user's checkout.
    BUILD="$(mktemp -d)"
    trap 'rm -rf "$BUILD"' EXIT
    (cd "$SOURCE" && cp -r "${PROJECT_FILES[@]}" "$BUILD/")
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --root-user-action=ignore \
        --upgrade --constraint "$HERE/pi-constraints.txt" "$BUILD"
    "$VENV/bin/python" -c 'import picamera2, lgpio, cv2' ||
        fail "picamera2, lgpio or cv2 does not import in $VENV (see the lines above)"
    install -d "$PREFIX/docs"
    install -m 0644 "$SOURCE/docs/pi-install.md" "$PREFIX/docs/pi-install.md"
    install -d "$(dirname "$LINK")"
    ln -sfn "$VENV/bin/companion" "$LINK"
    echo "$fingerprint" >"$STAMP"
    PROJECT_CHANGED=yes
    say "installed the project into $VENV ($LINK runs it)"
}

install_config() {
    if [ -e "$CONFIG_DIR/config.toml" ]; then
        say "unchanged: $CONFIG_DIR/config.toml (yours is kept)"
        return
    fi
    install -d -m 0755 "$CONFIG_DIR"
    install -m 0644 "$HERE/config.toml" "$CONFIG_DIR/config.toml"
    say "wrote the default $CONFIG_DIR/config.toml"
}

# Keep the text console from blanking the screen (the app itself never lets it blank).
no_console_blanking() {
    local cmdline
    cmdline="$(cmdline_file)"
    if [ ! -e "$cmdline" ]; then
        say "warning: no $cmdline: cannot set consoleblank=0"
        return
    fi
    if grep -q 'consoleblank=' "$cmdline"; then
        say "unchanged: consoleblank in $cmdline"
        return
    fi
    sed -i '1 s/$/ consoleblank=0/' "$cmdline"
    mkdir -p "$MARKERS" && touch "$MARKERS/consoleblank"
    REBOOT_NEEDED=yes
    say "added consoleblank=0 to $cmdline"
}

install_unit() {
    local rendered
    rendered="$(sed -e "s|@PREFIX@|${PREFIX}|g" -e "s|@USER@|${APP_USER}|g" "$HERE/$SERVICE")"
    if [ -e "$UNIT" ] && [ "$(cat "$UNIT")" = "$rendered" ]; then
        say "unchanged: $UNIT"
        UNIT_CHANGED=no
    else
        install -d "$(dirname "$UNIT")"
        printf '%s\n' "$rendered" >"$UNIT"
        chmod 0644 "$UNIT"
        systemctl daemon-reload
        UNIT_CHANGED=yes
        say "installed $UNIT"
    fi
    if ! systemctl is-enabled --quiet "$SERVICE"; then
        systemctl enable "$SERVICE"
    fi
}

# A desktop (a display manager) would hold the screen that the app draws on through KMS/DRM.
warn_about_a_desktop() {
    if systemctl is-enabled --quiet display-manager.service; then
        say "warning: a desktop starts at boot and holds the screen; boot to the console instead:"
        say "  sudo systemctl set-default multi-user.target && sudo systemctl disable display-manager"
    fi
}

start_service() {
    [ "$START" = yes ] || return 0
    if ! systemctl is-active --quiet "$SERVICE"; then
        systemctl start "$SERVICE"
        say "started $SERVICE"
    elif [ "$UNIT_CHANGED" = yes ] || [ "$PROJECT_CHANGED" = yes ]; then
        systemctl restart "$SERVICE"
        say "restarted $SERVICE"
    fi
}

main() {
    parse_arguments "$@"
    become_root "$@"
    check_machine
    install_packages
    create_user
    install_project
    install_config
    no_console_blanking
    install_unit
    warn_about_a_desktop
    start_service
    say "done: journalctl -u $SERVICE -f shows its log; companion doctor checks the set-up"
    if [ "$REBOOT_NEEDED" = yes ]; then
        say "reboot once for the kernel command line change"
    fi
}

main "$@"
