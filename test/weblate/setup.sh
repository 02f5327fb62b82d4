#!/usr/bin/env bash
# Installs a real Weblate for `npm run test:weblate` (test/weblate/README.md) and prepares a
# migrated template database; a second run finds both and only checks them. Prints one line
# per step with its time, and the Weblate version, on stderr; prints the venv folder on stdout.
#
# Usage: setup.sh [2026.10.1 | 5.14.3 | newest]   (default: 2026.10.1)
# Each pinned release installs with the dependency set of its release day + 1 (uv
# --exclude-newer): newer django-otp breaks 5.14's middleware (seen 2026-11-26), and a pinned
# set keeps a run repeatable. `newest` takes the newest release on PyPI without the cap: the
# canary that meets a new release the day it appears.
set -euo pipefail
cd "$(dirname "$0")/../.."

wanted=${1:-2026.10.1}
case "$wanted" in
  # Released 2026-10-09; 2026.x needs Python >= 3.12 and no longer builds PyGObject or pycairo.
  2026.10.1) version=2026.10.1 cap=2026-10-10 minor=12 ;;
  # Capped at 2025-11-08, its release day (docs/decisions/2026-11-26-real-weblate-tier.md);
  # the newest release that installs on Python 3.11 (5.15 needs 3.12).
  5.14.3) version=5.14.3 cap=2025-11-08 minor=11 ;;
  newest) version=newest cap= minor=12 ;;
  *) echo "test/weblate/setup.sh: no Weblate $wanted here; use 2026.10.1, 5.14.3 or newest" >&2; exit 2 ;;
esac

# The Python: 3.11 for 5.14.3 (PyGObject < 3.51 builds there), else the newest 3.x >= 3.12 that
# pyenv or PATH has. Found, not hard-coded: a machine without one gets one line and exit 1.
find_python() {
  local candidates=() root
  if [ "$minor" = 11 ]; then
    root=$(pyenv root 2>/dev/null || true)
    [ -n "$root" ] && candidates+=("$root"/versions/3.11.*/bin/python3)
    candidates+=("$(command -v python3.11 || true)" "$(command -v python3 || true)")
  else
    root=$(pyenv root 2>/dev/null || true)
    [ -n "$root" ] && candidates+=($(ls -d "$root"/versions/3.*/bin/python3 2>/dev/null | sort -V -r))
    for m in 14 13 12; do candidates+=("$(command -v python3.$m || true)"); done
    candidates+=("$(command -v python3 || true)")
  fi
  local python v
  for python in "${candidates[@]}"; do
    [ -x "$python" ] || continue
    v=$("$python" -c 'import sys; print(sys.version_info[1] if sys.version_info[0] == 3 else 0)' 2>/dev/null) || continue
    if [ "$minor" = 11 ] && [ "$v" = 11 ]; then echo "$python"; return; fi
    if [ "$minor" != 11 ] && [ "$v" -ge 12 ]; then echo "$python"; return; fi
  done
  return 1
}
python=$(find_python) || {
  if [ "$minor" = 11 ]; then need="Python 3.11"; else need="Python >= 3.12"; fi
  echo "test/weblate/setup.sh: Weblate $wanted needs $need, and neither pyenv nor PATH has one; install it (pyenv install 3.13) and run again" >&2
  exit 1
}

# Kept outside the clone, so that CI's fresh clone on the same machine reuses the venvs, uv's
# package cache and the migrated templates (whose databases live in PostgreSQL anyway).
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tmsnap
root=$cache/weblate-$version
venv=$root/venv
mkdir -p "$cache"
# One set-up of a release at a time on a machine (two clones, or CI beside a session).
exec 9>"$root.lock"
flock 9
started=$(date +%s)
step() { echo "test:weblate setup: $1 ($(($(date +%s) - started)) s)" >&2; }

# Debian packages: borgbackup compiles against the archive libraries; 5.14's PyGObject and
# pycairo against GLib and cairo, and rsvg's typelib is loaded when it starts. PostgreSQL and
# Redis are installed only where the machine does not already run them.
debs=(pkg-config libacl1-dev liblz4-dev libzstd-dev libxxhash-dev libssl-dev libffi-dev libpq-dev
  libxml2-dev libxslt1-dev zlib1g-dev libjpeg-dev git)
[ "$version" = 5.14.3 ] && debs+=(libgirepository1.0-dev libcairo2-dev gir1.2-pango-1.0 gir1.2-rsvg-2.0)
redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 || debs+=(redis-server redis-tools)
pg_isready -h 127.0.0.1 -q 2>/dev/null || debs+=(postgresql postgresql-client)
missing=()
for deb in "${debs[@]}"; do dpkg-query -W -f='${Status}' "$deb" 2>/dev/null | grep -q 'ok installed' || missing+=("$deb"); done
if [ ${#missing[@]} -gt 0 ]; then
  # Two set-ups may run side by side (CI prepares both versions at once): apt takes one at a time.
  flock /tmp/tmsnap-weblate-apt.lock bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null' _ "${missing[@]}"
  step "installed ${missing[*]}"
fi

if ! pg_isready -h 127.0.0.1 -q; then
  cluster=$(ls /etc/postgresql | sort -V | tail -1)
  # A cluster installed here answers root only through the postgres role: trust loopback.
  hba=/etc/postgresql/$cluster/main/pg_hba.conf
  grep -q '^host all postgres 127.0.0.1/32 trust' "$hba" || sed -i '1i host all postgres 127.0.0.1/32 trust' "$hba"
  pg_ctlcluster --skip-systemctl-redirect "$cluster" main start
  step "started PostgreSQL $cluster"
fi
if ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  step "started Redis"
fi

export UV_CACHE_DIR=$cache/uv
uv=$cache/uv-tool/bin/uv
if [ ! -x "$uv" ]; then
  mkdir -p "$cache"
  "$python" -m venv "$cache/uv-tool"
  "$cache/uv-tool/bin/pip" install -q uv
fi

if [ "$version" = newest ]; then
  # The canary: whatever PyPI has today, in a venv made anew each time.
  rm -rf "$venv"
  "$uv" venv -q --python "$python" "$venv"
  VIRTUAL_ENV=$venv "$uv" pip install -q "weblate[postgres]"
  step "installed the newest weblate into $venv"
elif [ ! -x "$venv/bin/weblate" ]; then
  rm -rf "$venv"
  "$uv" venv -q --python "$python" "$venv"
  constraints=()
  if [ "$version" = 5.14.3 ]; then
    mkdir -p "$root"
    printf 'PyGObject<3.51\n' >"$root/constraints.txt" # 3.51 needs girepository-2.0 (GLib 2.80)
    constraints=(-c "$root/constraints.txt")
  fi
  VIRTUAL_ENV=$venv "$uv" pip install -q --exclude-newer "$cap" "${constraints[@]}" "weblate[postgres]==$version"
  step "installed weblate $version into $venv"
fi
installed=$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("weblate"))')
db=tmsnap_weblate_${installed//./_}_template

psql_() { psql -h 127.0.0.1 -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt "$@"; }
# The template database and data folder go together: a fresh clone on a machine that kept the
# database (CI runs where the session ran) makes both again.
if [ ! -d "$root/data-template/home" ] || [ "$(psql_ -c "select 1 from pg_database where datname='$db'")" != 1 ] ||
  [ "$(psql_ -d "$db" -c "select count(*) from weblate_auth_user where username='admin'" 2>/dev/null)" != 1 ]; then
  psql_ -c "drop database if exists $db" -c "create database $db"
  # The data folder that migrate prepares (git identity and merge driver under home/, the SSH
  # key) is the template of every run's, as the database is.
  data=$root/data-template
  rm -rf "$data" && mkdir -p "$data"
  export TMSNAP_WEBLATE_DATA=$data TMSNAP_WEBLATE_DB=$db PYTHONPATH=$PWD/test/weblate DJANGO_SETTINGS_MODULE=settings
  "$venv/bin/weblate" migrate --noinput >"$root/migrate.log" 2>&1 || { tail -20 "$root/migrate.log" >&2; exit 1; }
  "$venv/bin/weblate" createadmin --username admin --password tmsnap-admin --email admin@example.com --update >>"$root/migrate.log" 2>&1
  step "migrated the template database $db"
fi

step "weblate $installed on Python $("$python" -c 'import platform; print(platform.python_version())') ready"
echo "$venv"
