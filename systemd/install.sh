#!/usr/bin/env bash
# companion on a Raspberry Pi: install, repair, update, uninstall. `sudo make install` runs it.
#
#   systemd/install.sh                    install from this clone, or repair (run again: changes nothing)
#   systemd/install.sh --update           switch to this clone's version safely (verify, switch, READY or back)
#   systemd/install.sh --uninstall        remove everything but the games (/var/lib/companion)
#   systemd/install.sh --preflight        only the checks, nothing changed
#   systemd/install.sh --wheelhouse DIR   take the wheels from DIR (`make wheelhouse`), not from PyPI
#
# What each file does and why: systemd/README.md. Everything it does goes to
# /var/log/companion-install.log. Set for tests and unusual boxes (all optional):
#   COMPANION_PREFLIGHT_ROOT=DIR   read DIR/etc/os-release instead of /etc/os-release
#   COMPANION_ARCH=aarch64[/arm64] the kernel's machine [/ dpkg's architecture] instead of asking them
#   COMPANION_MIN_FREE_MB=400      free space needed under /opt
#   COMPANION_KEEP_VERSIONS=3      versions kept in /opt/companion/versions (the current one included)
#   COMPANION_READY_SECONDS=120    how long a restarted daemon has to say READY before the old one comes back
#   COMPANION_SERVICE_CTL=PROG     what starts/restarts/stops the service instead of systemctl
#   COMPANION_KILL_AT=STEP         kill -9 this script at STEP (tests: an update survives any interruption)
set -euo pipefail
umask 022
export LC_ALL=C.UTF-8

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=/opt/companion
VERSIONS=$PREFIX/versions
CONFIG_DIR=/etc/companion
CONFIG=$CONFIG_DIR/companion.toml
STATE=/var/lib/companion
LOG=/var/log/companion-install.log
UNIT_NAME=companion.service
UNIT=/etc/systemd/system/$UNIT_NAME
SYSUSERS=/etc/sysusers.d/companion.conf
MODULES=/etc/modules-load.d/companion.conf
UDEV_RULE=/etc/udev/rules.d/70-companion-reader.rules
AVAHI_SERVICE=/etc/avahi/services/companion.service  # http://<name>.local where mDNS works
POLKIT_RULE=/etc/polkit-1/rules.d/50-companion.rules  # the buttons' Power off… (logind's PowerOff)
HOTSPOT_RULE=/etc/polkit-1/rules.d/51-companion-hotspot.rules  # copied in by hand only (docs/daemon.md)
LOCK=/run/lock/companion-install.lock
MIN_FREE_MB=${COMPANION_MIN_FREE_MB:-400}
KEEP=${COMPANION_KEEP_VERSIONS:-3}
READY_SECONDS=${COMPANION_READY_SECONDS:-120}
# after READY the daemon must still be running this much later (a crash just after READY)
SETTLE_SECONDS=${COMPANION_SETTLE_SECONDS:-5}
BAUD_LINE=dtparam=i2c_arm_baudrate=400000
MARK="# added by companion's installer (systemd/install.sh)"

mode=install
wheelhouse=
while [ $# -gt 0 ]; do
  case $1 in
    --update) mode=update ;;
    --uninstall) mode=uninstall ;;
    --preflight) mode=preflight ;;
    --wheelhouse) [ $# -ge 2 ] || { echo "--wheelhouse needs a folder" >&2; exit 2; }
                  wheelhouse=$(cd "$2" && pwd) || exit 2; shift ;;
    --wheelhouse=*) wheelhouse=$(cd "${1#*=}" && pwd) || exit 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

changes=0
reboot=0  # config.txt or raspi-config changed: the buses change at the next boot
logging=0 # the log is written from the moment the preflight has passed
say() { # one line to the terminal and to the install log
  echo "$*"
  if [ $logging = 1 ]; then printf '%s %s\n' "$(date -u +%FT%TZ)" "$*" >> "$LOG"; fi
}
did() { changes=$((changes + 1)); say "  + $*"; }
die() { say "FAILED: $*"; exit 1; }
kill_at() { # tests: die here as a power cut or kill -9 would
  if [ "${COMPANION_KILL_AT:-}" = "$1" ]; then say "  (test) kill -9 at $1"; kill -9 $$; fi
}
systemd_running() { [ -n "${COMPANION_SERVICE_CTL:-}" ] || [ -d /run/systemd/system ]; }
ctl() { "${COMPANION_SERVICE_CTL:-systemctl}" "$@"; }

# ---------------------------------------------------------------- preflight
python_version() { python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null; }

preflight() {
  local problems=() osr id codename version_id kernel userland py free at
  [ "$(id -u)" = 0 ] || problems+=("not root: run sudo make install (it writes /etc, /opt and the systemd unit)")
  osr=${COMPANION_PREFLIGHT_ROOT:-}/etc/os-release
  if [ -r "$osr" ]; then
    # shellcheck disable=SC1090
    id=$(. "$osr" && echo "${ID:-}")
    # shellcheck disable=SC1090
    codename=$(. "$osr" && echo "${VERSION_CODENAME:-}")
    # shellcheck disable=SC1090
    version_id=$(. "$osr" && echo "${VERSION_ID:-}")
    case "$id:$codename" in
      debian:bookworm|raspbian:bookworm|debian:trixie|raspbian:trixie) ;;
      debian:*|raspbian:*)
        problems+=("OS: $id ${version_id:-?} ($codename) is refused: Raspberry Pi OS / Debian 12 Bookworm or 13 Trixie only (older ones have Python < 3.11 and no lgpio for the Pi 5; flash Raspberry Pi OS 64-bit)") ;;
      *)
        problems+=("OS: ${id:-unknown} ${version_id:-} is refused: Raspberry Pi OS / Debian 12 Bookworm or 13 Trixie only (the device groups gpio/i2c/spi, raspi-config and the pinned wheels are theirs; other systems are untested)") ;;
    esac
  else
    problems+=("OS: $osr missing: cannot tell which system this is")
  fi
  if [ -n "${COMPANION_ARCH:-}" ]; then
    kernel=${COMPANION_ARCH%%/*}; userland=${COMPANION_ARCH#*/}
    [ "$userland" != "$COMPANION_ARCH" ] || userland=$( [ "$kernel" = aarch64 ] && echo arm64 || echo "$kernel")
  else
    kernel=$(uname -m); userland=$(dpkg --print-architecture 2>/dev/null || echo unknown)
  fi
  case "$kernel:$userland" in
    aarch64:arm64) ;;
    aarch64:*) problems+=("architecture: a 64-bit kernel under a $userland (32-bit) system is refused: the pinned wheels are for 64-bit Raspberry Pi OS (arm64); flash Raspberry Pi OS (64-bit)") ;;
    armv6l:*|armv7l:*|armv8l:*|arm:*) problems+=("architecture: $kernel (32-bit ARM: Raspberry Pi OS 32-bit, or a Pi 1 / Zero / Zero W) is refused: PyPI has no 32-bit ARM wheels for lgpio and Pillow, and compiling them on the box runs a Zero out of memory; flash Raspberry Pi OS (64-bit) on a Pi Zero 2 W, 3, 4 or 5") ;;
    *) problems+=("architecture: $kernel is refused: this installs the box on a Raspberry Pi (aarch64); on a laptop use make demo, or pip install -e . in a venv") ;;
  esac
  py=$(python_version || true)
  if [ -z "$py" ]; then
    problems+=("Python: python3 missing: apt install python3")
  elif [ "$(printf '%s\n' 3.11 "$py" | sort -V | head -1)" != 3.11 ]; then
    problems+=("Python: $py is too old: companion needs Python >= 3.11 (Bookworm has 3.11)")
  fi
  command -v systemctl >/dev/null || problems+=("systemd: systemctl missing: companion runs as a systemd service")
  at=$PREFIX; while [ ! -d "$at" ]; do at=$(dirname "$at"); done
  free=$(df -Pm "$at" | awk 'NR==2 {print $4}')
  [ "${free:-0}" -ge "$MIN_FREE_MB" ] ||
    problems+=("disk: ${free:-0} MB free under $at, $MIN_FREE_MB MB needed (a version with its venv is about 100 MB): apt clean, or a larger SD card")
  if [ ${#problems[@]} -gt 0 ]; then
    printf 'preflight: %s\n' "${problems[@]}" >&2
    echo "preflight: ${#problems[@]} problem(s), nothing was changed" >&2
    exit 1
  fi
  preflight_ok="preflight: ok (${id:-?} $codename, $kernel/$userland, Python $py, $free MB free)"
  echo "$preflight_ok"
}

# ---------------------------------------------------------------- small declarative files
put() { # put FILE MODE: write stdin to FILE unless it already holds exactly that
  local file=$1 mode=$2 tmp
  tmp=$(mktemp)
  cat > "$tmp"
  if [ -f "$file" ] && cmp -s "$tmp" "$file"; then
    rm -f "$tmp"
    [ "$(stat -c %a "$file")" = "$mode" ] || { chmod "$mode" "$file"; did "mode $mode on $file"; }
    return 1
  fi
  mkdir -p "$(dirname "$file")"
  install -m "$mode" "$tmp" "$file.new" && mv -f "$file.new" "$file"
  rm -f "$tmp"
  did "wrote $file"
}

install_user() {
  put "$SYSUSERS" 644 <<'EOF' || true
# companion's system user (systemd/install.sh; sysusers.d(5)). The device groups exist on
# Raspberry Pi OS already; on plain Debian they are made so the unit's SupplementaryGroups= resolve.
u companion - "companion board game banker" /var/lib/companion /usr/sbin/nologin
g gpio -
g i2c -
g spi -
g dialout -
EOF
  local before
  before=$(getent passwd companion || true)
  systemd-sysusers "$SYSUSERS" >> "$LOG" 2>&1
  [ -n "$before" ] || did "made the system user companion"
}

install_devices() {
  if put "$MODULES" 644 <<'EOF'; then
# companion's device drivers, loaded before the service starts (systemd/install.sh):
# the OLED's I2C bus, SPI, and the reader (a Pico on USB, a CDC ACM serial port)
i2c-dev
spidev
cdc_acm
EOF
    if systemd_running && [ -z "${COMPANION_SERVICE_CTL:-}" ]; then modprobe -a i2c-dev spidev cdc_acm 2>/dev/null || say "  modprobe: not every module loaded now (at the next boot they are)"; fi
  fi
  if put "$UDEV_RULE" 644 <<'EOF'; then
# companion's card reader: a Raspberry Pi Pico running MicroPython (USB 2e8a:0005) gets a stable
# name, /dev/companion-reader, whichever ttyACM it is; ModemManager leaves it alone instead of
# probing it as a modem for ~10 s after every plug-in (systemd/install.sh).
SUBSYSTEM=="tty", ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="0005", SYMLINK+="companion-reader", ENV{ID_MM_DEVICE_IGNORE}="1"
EOF
    if systemd_running && [ -z "${COMPANION_SERVICE_CTL:-}" ] && command -v udevadm >/dev/null; then
      udevadm control --reload && udevadm trigger --subsystem-match=tty --action=add || true
    fi
  fi
}

phone_port() { # the phone page's port as the config sets it (phone.port), else the default the file names
  python3 - "$CONFIG" <<'PY' 2>/dev/null || echo 8080
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        port = tomllib.load(f).get("phone", {}).get("port", 8080)
except (OSError, tomllib.TOMLDecodeError):
    port = 8080
print(port if isinstance(port, int) and 0 < port < 65536 else 8080)
PY
}

install_network() { # the avahi service file and the polkit rule: plain files, read when they appear
  # the port announced is the one the config gives the page (run the installer again after changing it)
  put "$AVAHI_SERVICE" 644 < <(sed "s|<port>8080</port>|<port>$(phone_port)</port>|" "$SRC/systemd/avahi/companion.service") || true
  put "$POLKIT_RULE" 644 < "$SRC/systemd/polkit/50-companion.rules" || true
}

boot_config() { # the firmware's config.txt: /boot/firmware on Bookworm, /boot before it
  local f
  for f in /boot/firmware/config.txt /boot/config.txt; do [ -f "$f" ] && { echo "$f"; return; }; done
}

install_buses() {
  local cfg iface
  cfg=$(boot_config)
  if command -v raspi-config >/dev/null; then
    for iface in i2c spi; do
      # get_i2c / get_spi print 0 when enabled
      if [ "$(raspi-config nonint "get_$iface" 2>/dev/null)" != 0 ]; then
        raspi-config nonint "do_$iface" 0 && did "enabled ${iface^^} (raspi-config nonint do_$iface 0; takes effect at the next boot)"
        reboot=1
      fi
    done
  elif [ -n "$cfg" ]; then
    for iface in i2c_arm spi; do
      grep -Eq "^[[:space:]]*dtparam=([^#]*,)?$iface=on" "$cfg" ||
        { printf '%s\ndtparam=%s=on\n' "$MARK" "$iface" >> "$cfg"; did "enabled $iface in $cfg (no raspi-config; at the next boot)"; reboot=1; }
    done
  fi
  if [ -z "$cfg" ]; then
    say "  no config.txt under /boot/firmware or /boot (not a Pi's boot partition): I2C/SPI and the I2C speed left alone"
  elif grep -Eq '^[[:space:]]*dtparam=([^#]*,)?i2c_arm_baudrate=' "$cfg"; then
    : # a speed is set already: it is the owner's choice, kept
  else
    printf '%s\n%s\n' "$MARK" "$BAUD_LINE" >> "$cfg"
    did "the I2C bus at 400 kHz: $BAUD_LINE in $cfg (at the next boot)"
    reboot=1
  fi
}

write_config() {
  if [ -e "$CONFIG" ]; then return; fi # written once, never overwritten: it is the owner's
  local lang=en
  case "${LANG:-}" in ru*) lang=ru ;; esac
  mkdir -p "$CONFIG_DIR"
  put "$CONFIG" 644 <<EOF || true
# companion's configuration (docs/configuration.md lists every key). Written once by
# systemd/install.sh and never overwritten by it: edit it, then systemctl restart companion.
hardware = "real"      # the Pico on USB; never replaced by a simulation
language = "$lang"        # or "en" / "ru"
# games_dir and control.socket stay empty: /var/lib/companion and /run/companion

[reader]
# the stable name the udev rule gives the Pico (/etc/udev/rules.d/70-companion-reader.rules)
port = "/dev/companion-reader"
EOF
}

install_unit() {
  local changed=0
  put "$UNIT" 644 < "$SRC/systemd/companion.service" && changed=1
  if [ "$(systemctl is-enabled "$UNIT_NAME" 2>/dev/null)" != enabled ]; then
    systemctl enable --quiet "$UNIT_NAME" 2>/dev/null || systemctl --root=/ enable --quiet "$UNIT_NAME"
    did "enabled $UNIT_NAME (starts at boot)"
  fi
  if ! systemd_running; then
    say "  no running systemd (a chroot or an image): not started now; it starts at boot"
    return
  fi
  if [ -z "${COMPANION_SERVICE_CTL:-}" ] && [ $changed = 1 ]; then systemctl daemon-reload; fi
  if [ $changed = 1 ] && ctl is-active --quiet "$UNIT_NAME"; then
    say "  the unit changed: restarting $UNIT_NAME (waiting for READY, at most ${READY_SECONDS}s)"
    wait_ready || die "$UNIT_NAME did not report READY after the unit changed: journalctl -u companion -b"
    did "restarted $UNIT_NAME with the new unit"
  elif ! ctl is-active --quiet "$UNIT_NAME"; then
    say "  starting $UNIT_NAME (waiting for READY, at most ${READY_SECONDS}s)"
    timeout "$READY_SECONDS" "${COMPANION_SERVICE_CTL:-systemctl}" start "$UNIT_NAME" ||
      die "$UNIT_NAME did not report READY: journalctl -u companion -b"
    did "started $UNIT_NAME"
  fi
}

# ---------------------------------------------------------------- versions
source_id() { # <version>-<commit> of this clone; a changed or unversioned tree: a hash of its files
  local version commit
  version=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' "$SRC/pyproject.toml")
  # safe.directory: under sudo the clone belongs to someone else, which git refuses otherwise
  if command -v git >/dev/null && git -c safe.directory="$SRC" -C "$SRC" rev-parse --git-dir >/dev/null 2>&1 &&
     [ -z "$(git -c safe.directory="$SRC" -C "$SRC" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit=$(git -c safe.directory="$SRC" -C "$SRC" rev-parse --short=12 HEAD)
  else
    commit=t$(source_files | LC_ALL=C sort | (cd "$SRC" && xargs -d '\n' sha256sum) | sha256sum | cut -c1-11)
  fi
  echo "$version-$commit"
}

source_files() { # what a version keeps of the clone (relative paths), none of its build leftovers
  local top tops=()
  for top in pyproject.toml README.md companion web systemd docs firmware hardware; do
    [ -e "$SRC/$top" ] && tops+=("$top")
  done
  (cd "$SRC" && find "${tops[@]}" -type f \
     -not -path '*/__pycache__/*' -not -path '*/node_modules/*' -not -name '*.pyc' -not -path '*.egg-info*')
}

python_minor() { python3 -c 'import sys; print(sys.version_info[1])'; }

pip_env() { # only this file's choices: no index or wheel folder from the box's pip.conf (piwheels)
  env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_CONSTRAINT -u PIP_REQUIREMENT PIP_CONFIG_FILE=/dev/null \
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 "$@"
}

apt_install() { # apt_install PACKAGE...: from the lists there are, else after an apt-get update
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends "$@" >> "$LOG" 2>&1 ||
    { apt-get update -q >> "$LOG" 2>&1 && apt-get install -y -q --no-install-recommends "$@" >> "$LOG" 2>&1; }
}

debian_packages() { # what the box needs from Debian: venv itself; lgpio on Python 3.13 (no wheel); the OLED's font
  local need=()
  python3 -c 'import ensurepip' 2>/dev/null || need+=(python3-venv)
  if [ "$(python_minor)" -ge 13 ]; then python3 -c 'import lgpio' 2>/dev/null || need+=(python3-lgpio); fi
  if [ ${#need[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || die "missing Debian packages: ${need[*]}"
    apt_install "${need[@]}" || die "apt-get install ${need[*]} failed (offline? install them first): see $LOG"
    did "installed ${need[*]} (apt)"
  fi
  if [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
    if command -v apt-get >/dev/null && apt_install fonts-dejavu-core; then did "installed fonts-dejavu-core (apt): the OLED's letters"
    else say "  fonts-dejavu-core missing and not installed (offline?): the OLED falls back to a plain font; apt install fonts-dejavu-core"; fi
  fi
}

build_version() { # build_version DIR: the version's own copy of the source and its own venv
  local dir=$1 site=() index=()
  [ -f "$dir/.complete" ] && return
  rm -rf "$dir"  # a build that was cut short: start it again
  mkdir -p "$dir/src"
  kill_at build-started
  source_files | (cd "$SRC" && tar -cf - -T -) | tar -xf - -C "$dir/src"
  # 3.13: lgpio comes from Debian (python3-lgpio), which only a venv with the system's packages sees
  [ "$(python_minor)" -lt 13 ] || site=(--system-site-packages)
  python3 -m venv "${site[@]}" "$dir/venv"
  kill_at venv-made
  [ -z "$wheelhouse" ] || index=(--no-index --find-links "$wheelhouse")
  say "  building $dir (wheels only${wheelhouse:+, from $wheelhouse})"
  pip_env "$dir/venv/bin/pip" install --quiet --only-binary=:all: --require-hashes "${index[@]}" \
    -r "$dir/src/systemd/requirements-aarch64.txt" >> "$LOG" 2>&1 ||
    die "pip could not install the pinned wheels (offline? use --wheelhouse): see $LOG"
  # companion itself is pure Python: setuptools (pinned above) packs it, nothing is compiled
  pip_env "$dir/venv/bin/pip" install --quiet --no-deps --no-build-isolation --no-index "$dir/src" >> "$LOG" 2>&1 ||
    die "could not install companion into $dir/venv: see $LOG"
  rm -rf "$dir/src/build" "$dir/src"/*.egg-info
  # the reader's firmware beside the package, where companion/hw/simreader.py looks for it: with it
  # hardware = "simulated" runs on the box too (a try before the wiring; the tests run it so)
  ln -sfn ../../../../src/firmware "$("$dir/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/firmware"
  "$dir/venv/bin/companion" --help > /dev/null || die "$dir/venv/bin/companion does not run"
  kill_at venv-built
  sync -f "$dir/venv" 2>/dev/null || sync
  date -u +%FT%TZ > "$dir/.complete"
  sync -f "$dir" 2>/dev/null || sync
  did "built version $(basename "$dir")"
}

current_dir() { # the complete version the link points at, or nothing
  local t
  t=$(readlink "$PREFIX/current" 2>/dev/null) || return 0
  [ -f "$PREFIX/$t/.complete" ] && echo "$PREFIX/$t"
  return 0
}

point_current_at() { # atomically: a new link under a temporary name, renamed over the old one
  local target=$1 rel
  rel=versions/$(basename "$target")
  rm -f "$PREFIX/current.new"
  ln -s "$rel" "$PREFIX/current.new"
  kill_at link-made
  mv -T "$PREFIX/current.new" "$PREFIX/current"
  sync -f "$PREFIX" 2>/dev/null || sync
}

ensure_compat_links() { # the unit's ExecStart (/opt/companion/.venv) and Documentation= (src)
  local name
  for name in .venv:current/venv src:current/src; do
    if [ "$(readlink "$PREFIX/${name%%:*}" 2>/dev/null)" != "${name#*:}" ]; then
      rm -rf "${PREFIX:?}/${name%%:*}"
      ln -s "${name#*:}" "$PREFIX/${name%%:*}"
      did "linked $PREFIX/${name%%:*} -> ${name#*:}"
    fi
  done
}

games_dir() {
  local d=
  [ -r "$CONFIG" ] && d=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb")).get("games_dir", ""))' "$CONFIG" 2>/dev/null || true)
  echo "${d:-$STATE}"
}

verify_game_in_play() { # verify_game_in_play NEWDIR: the new version replays the game in play, or no switch
  local ledger tmp out rc=0
  ledger=$(games_dir)/current.sqlite
  if [ ! -f "$ledger" ]; then say "  no game in play ($ledger): nothing to replay"; return; fi
  tmp=$(mktemp -d)
  chmod 0755 "$tmp"
  # a consistent copy through SQLite's backup API (the daemon may be writing), read as the
  # ledger's owner so no root-owned -wal/-shm file is left beside the daemon's ledger
  chown "$(stat -c %u:%g "$ledger")" "$tmp"
  setpriv --reuid="$(stat -c %u "$ledger")" --regid="$(stat -c %g "$ledger")" --clear-groups \
    python3 -c 'import sqlite3, sys
src = sqlite3.connect(sys.argv[1])
dst = sqlite3.connect(sys.argv[2])
src.backup(dst)
dst.close(); src.close()' "$ledger" "$tmp/current.sqlite" ||
    { rm -rf "$tmp"; die "could not copy the game in play ($ledger)"; }
  # verified as the daemon verifies: as its user, against this box's anchors (the unit's COMPANION_STATE_DIR),
  # so a stranger's or a rolled-back file is refused too; verify writes nothing
  out=$(cd "$tmp" && setpriv --reuid="$(stat -c %u "$ledger")" --regid="$(stat -c %g "$ledger")" --clear-groups \
          env COMPANION_STATE_DIR="$STATE" HOME="$tmp" "$1/venv/bin/companion" verify --db "$tmp/current.sqlite" 2>&1) || rc=$?
  # 0: verified; 10: a stranger's game (docs/exit-codes.md: replayed and its chain checked, but no
  # anchor here vouches for it; the daemon shows it read-only): either way the new version reads it
  if [ $rc = 0 ] || [ $rc = 10 ]; then
    say "  the new version replays the game in play: $(echo "$out" | head -1)"
    rm -rf "$tmp"
  else
    echo "$out" >> "$LOG"
    rm -rf "$tmp"
    die "the new version $(basename "$1") does not verify the game in play ($ledger): not switched, the old version keeps running"
  fi
}

wait_ready() { # restart the service; it must say READY (Type=notify) and still run a moment later
  timeout "$READY_SECONDS" "${COMPANION_SERVICE_CTL:-systemctl}" restart "$UNIT_NAME" >> "$LOG" 2>&1 || return 1
  sleep "$SETTLE_SECONDS"
  ctl is-active --quiet "$UNIT_NAME"
}

switch_to() { # switch_to NEWDIR: the update proper; the link is on a complete version at every moment
  local new=$1 old
  old=$(current_dir)
  if [ -n "$old" ] && [ "$old" != "$new" ]; then
    verify_game_in_play "$new"
    kill_at verified
    # remembered until the new version has said READY: a run cut short after the switch finishes it
    echo "versions/$(basename "$old")" > "$PREFIX/switching.new" && mv -f "$PREFIX/switching.new" "$PREFIX/switching"
  fi
  point_current_at "$new"
  kill_at switched
  if [ -n "$old" ] && [ "$old" != "$new" ]; then did "switched $PREFIX/current: $(basename "$old") -> $(basename "$new")"
  elif [ -z "$old" ]; then did "switched $PREFIX/current -> $(basename "$new")"; fi
  finish_switch
}

finish_switch() { # after a switch: the daemon restarted on the new version says READY, or the old one comes back
  local old
  [ -f "$PREFIX/switching" ] || return 0
  old=$(cat "$PREFIX/switching")
  if systemd_running && ctl is-enabled --quiet "$UNIT_NAME" 2>/dev/null; then
    say "  restarting $UNIT_NAME on $(readlink "$PREFIX/current") (READY within ${READY_SECONDS}s, or back to $old)"
    kill_at restarting
    if ! wait_ready; then
      say "  $(readlink "$PREFIX/current") did not report READY: back to $old"
      point_current_at "$PREFIX/$old"
      rm -f "$PREFIX/switching"
      # the new version's failed starts must not use up StartLimitBurst= for the old one
      if [ -z "${COMPANION_SERVICE_CTL:-}" ]; then systemctl reset-failed "$UNIT_NAME" 2>/dev/null || true; fi
      timeout "$READY_SECONDS" "${COMPANION_SERVICE_CTL:-systemctl}" restart "$UNIT_NAME" >> "$LOG" 2>&1 ||
        say "  the old version did not report READY either: journalctl -u companion -b"
      die "update rolled back to $old (the new version's log: journalctl -u companion -b)"
    fi
    did "the daemon says READY on $(readlink "$PREFIX/current")"
  elif systemd_running; then
    say "  $UNIT_NAME is not enabled: not restarted (systemctl enable --now companion starts the new version)"
  else
    say "  no running systemd: the new version starts at the next boot"
  fi
  rm -f "$PREFIX/switching"
}

prune_versions() { # keep the newest $KEEP complete versions (the current one always); move away, then delete
  local cur d n=0
  cur=$(readlink "$PREFIX/current" 2>/dev/null || true)
  mkdir -p "$PREFIX/trash"
  # shellcheck disable=SC2011 # the names are ours: <version>-<commit>
  for d in $(ls -1t "$VERSIONS"/*/.complete 2>/dev/null | xargs -r -n1 dirname); do
    if [ "versions/$(basename "$d")" = "$cur" ]; then continue; fi
    n=$((n + 1))
    if [ $n -ge "$KEEP" ]; then mv -T "$d" "$PREFIX/trash/$(basename "$d")" && did "removed old version $(basename "$d")"; fi
  done
  for d in "$VERSIONS"/*; do # cut short while being built (we hold the lock: nobody is building it)
    [ -d "$d" ] && [ ! -f "$d/.complete" ] && [ "versions/$(basename "$d")" != "$cur" ] &&
      mv -T "$d" "$PREFIX/trash/$(basename "$d")" && did "removed unfinished $(basename "$d")"
  done
  kill_at pruning
  rm -rf "${PREFIX:?}/trash"
}

install_version() {
  local id dir
  id=$(source_id)
  dir=$VERSIONS/$id
  mkdir -p "$VERSIONS"
  debian_packages
  rm -f "$PREFIX/current.new" "$PREFIX/switching.new"
  finish_switch  # an update cut short after its switch
  build_version "$dir"
  [ "$(current_dir)" = "$dir" ] || switch_to "$dir"
  ensure_compat_links
  prune_versions
}

uninstall() {
  say "uninstall: removing companion (kept: the games and backups in $STATE, the user companion who owns them)"
  if systemctl is-enabled --quiet "$UNIT_NAME" 2>/dev/null || [ -e "$UNIT" ]; then
    if systemd_running; then ctl stop "$UNIT_NAME" 2>/dev/null || true; fi
    systemctl disable --quiet "$UNIT_NAME" 2>/dev/null || systemctl --root=/ disable --quiet "$UNIT_NAME" 2>/dev/null || true
  fi
  local f cfg
  for f in "$UNIT" "$SYSUSERS" "$MODULES" "$UDEV_RULE" "$AVAHI_SERVICE" "$POLKIT_RULE" "$HOTSPOT_RULE" "$CONFIG"; do
    if [ -e "$f" ]; then rm -f "$f"; did "removed $f"; fi
  done
  rmdir "$CONFIG_DIR" 2>/dev/null || true
  if [ -d "$PREFIX" ]; then rm -rf "$PREFIX"; did "removed $PREFIX"; fi
  cfg=$(boot_config)
  if [ -n "$cfg" ] && grep -qxF "$MARK" "$cfg"; then # our lines only (the one after each mark)
    awk -v mark="$MARK" '$0 == mark {skip = 1; next} skip {skip = 0; next} {print}' "$cfg" > "$cfg.new" && mv -f "$cfg.new" "$cfg"
    did "removed companion's lines from $cfg"
  fi
  if systemd_running && [ -z "${COMPANION_SERVICE_CTL:-}" ]; then systemctl daemon-reload; fi
}

# ---------------------------------------------------------------- main
if [ "$mode" = preflight ]; then preflight; exit 0; fi
preflight
mkdir -p "$(dirname "$LOCK")"
exec 9> "$LOCK"
flock -n 9 || die "another systemd/install.sh is running"
touch "$LOG" && chmod 640 "$LOG"
logging=1
printf '%s == systemd/install.sh --%s from %s\n%s %s\n' "$(date -u +%FT%TZ)" "$mode" "$SRC" "$(date -u +%FT%TZ)" "$preflight_ok" >> "$LOG"
case $mode in
  uninstall) uninstall ;;
  update)
    [ -e "$PREFIX/current" ] || die "not installed yet: sudo make install"
    install_version
    ;;
  install)
    install_user
    install_devices
    install_buses
    write_config
    install_network
    install_version
    install_unit
    ;;
esac
if [ $changes -eq 0 ]; then say "== $mode: nothing to change, everything was in place"
else say "== $mode: $changes change(s), listed above"; fi
if [ $reboot = 1 ] && [ -d /run/systemd/system ]; then say "== reboot once to turn the I2C/SPI changes on: sudo reboot"; fi
