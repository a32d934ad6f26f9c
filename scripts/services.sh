#!/usr/bin/env bash
# Install (Debian packages) and start the PostgreSQL and Redis servers on loopback for the scale-out tests and the
# PostgreSQL run of the suite. Idempotent. Prints the two URLs as shell assignments:
#   eval "$(scripts/services.sh)"   ->   GROUNDED_PG_URL=postgres://...  GROUNDED_REDIS_URL=redis://...
set -euo pipefail
if [ "$(id -u)" = 0 ]; then SUDO=""; AS_POSTGRES="runuser -u postgres --"; else SUDO=sudo; AS_POSTGRES="sudo -u postgres"; fi
if ! command -v pg_ctlcluster >/dev/null || ! command -v redis-server >/dev/null; then
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql redis-server >&2
fi
# PostgreSQL: the Debian cluster, started if down; a role that may create the test databases
read -r VERSION CLUSTER _ < <(pg_lsclusters -h | head -1)
if ! pg_lsclusters -h | head -1 | grep -q online; then
  $SUDO pg_ctlcluster "$VERSION" "$CLUSTER" start >&2
fi
$AS_POSTGRES psql -q -v ON_ERROR_STOP=1 >&2 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'grounded') THEN
    CREATE ROLE grounded LOGIN CREATEDB PASSWORD 'grounded';
  END IF;
END $$;
SQL
$AS_POSTGRES psql -q -tc "SELECT 1 FROM pg_database WHERE datname = 'grounded'" | grep -q 1 \
  || $AS_POSTGRES createdb -O grounded grounded >&2
# Redis: a daemon on loopback, started if not answering
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >&2
  for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
echo "GROUNDED_PG_URL=postgres://grounded:grounded@127.0.0.1:5432/grounded"
echo "GROUNDED_REDIS_URL=redis://127.0.0.1:6379/0"
