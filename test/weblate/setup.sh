#!/usr/bin/env bash
# Installs a real Weblate for `npm run test:weblate` (test/weblate/README.md) and prepares a
# migrated template database; a second run finds both and only checks them. Prints one line
# per step with its time, and the Weblate version, on stderr; prints the venv folder on stdout.
#
# Version: the newest release that installs on this Python. Weblate 5.15 and later need
# Python >= 3.12 and GLib >= 2.80 (Debian 12 has 3.11 and 2.74), so 3.11 gets 5.14.3 with the
# dependency set of its release day (uv --exclude-newer): newer django-otp breaks 5.14's
# middleware (AttributeError _verify_user, seen 2026-11-26).
set -euo pipefail
cd "$(dirname "$0")/../.."

python=${TMSNAP_WEBLATE_PYTHON:-python3}
pyver=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
case "$pyver" in
  3.11) version=5.14.3 released=2025-11-08 ;;
  *) echo "test/weblate/setup.sh: Python $pyver is not set up here; 3.11 installs Weblate 5.14.3 (docs/decisions/2026-11-26-real-weblate-tier.md)" >&2; exit 1 ;;
esac

root=.cache/weblate-$version
venv=$root/venv
db=tmsnap_weblate_${version//./_}_template
started=$(date +%s)
step() { echo "test:weblate setup: $1 ($(($(date +%s) - started)) s)" >&2; }

# Debian packages: PyGObject and pycairo compile against GLib and cairo, borgbackup against
# the archive libraries; rsvg's typelib is loaded when Weblate starts. PostgreSQL and Redis
# are installed only where the machine does not already run them.
debs=(pkg-config libgirepository1.0-dev libcairo2-dev gir1.2-pango-1.0 gir1.2-rsvg-2.0
  libacl1-dev liblz4-dev libzstd-dev libxxhash-dev libssl-dev libffi-dev libpq-dev
  libxml2-dev libxslt1-dev zlib1g-dev libjpeg-dev git)
redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 || debs+=(redis-server redis-tools)
pg_isready -h 127.0.0.1 -q 2>/dev/null || debs+=(postgresql postgresql-client)
missing=()
for deb in "${debs[@]}"; do dpkg-query -W -f='${Status}' "$deb" 2>/dev/null | grep -q 'ok installed' || missing+=("$deb"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
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

if [ ! -x "$venv/bin/weblate" ]; then
  rm -rf "$venv"
  "$python" -m venv "$root/uv"
  "$root/uv/bin/pip" install -q uv
  "$root/uv/bin/uv" venv -q --python "$python" "$venv"
  printf 'PyGObject<3.51\n' >"$root/constraints.txt" # 3.51 needs girepository-2.0 (GLib 2.80)
  VIRTUAL_ENV=$PWD/$venv "$root/uv/bin/uv" pip install -q --exclude-newer "$released" \
    -c "$root/constraints.txt" "weblate[postgres]==$version"
  step "installed weblate $version into $venv"
fi

psql_() { psql -h 127.0.0.1 -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt "$@"; }
# The template database and data folder go together: a fresh clone on a machine that kept the
# database (CI runs where the session ran) makes both again.
if [ ! -d "$root/data-template/home" ] || [ "$(psql_ -c "select 1 from pg_database where datname='$db'")" != 1 ] ||
  [ "$(psql_ -d "$db" -c "select count(*) from weblate_auth_user where username='admin'" 2>/dev/null)" != 1 ]; then
  psql_ -c "drop database if exists $db" -c "create database $db"
  # The data folder that migrate prepares (git identity and merge driver under home/, the SSH
  # key) is the template of every run's, as the database is.
  data=$PWD/$root/data-template
  rm -rf "$data" && mkdir -p "$data"
  export TMSNAP_WEBLATE_DATA=$data TMSNAP_WEBLATE_DB=$db PYTHONPATH=$PWD/test/weblate DJANGO_SETTINGS_MODULE=settings
  "$venv/bin/weblate" migrate --noinput >"$root/migrate.log" 2>&1 || { tail -20 "$root/migrate.log" >&2; exit 1; }
  "$venv/bin/weblate" createadmin --username admin --password tmsnap-admin --email admin@example.com --update >>"$root/migrate.log" 2>&1
  step "migrated the template database $db"
fi

step "weblate $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("weblate"))' 2>/dev/null || echo "$version") ready"
echo "$PWD/$venv"
