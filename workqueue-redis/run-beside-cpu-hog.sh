#!/usr/bin/env bash
# Runs the Redis module's whole test suite ROUNDS times (default 3) while one busy loop per core
# keeps every core of this machine busy: the tests must hold on a busy machine (issue 40). Stops
# at the first failing round; the hogs end with the script.
# Usage: workqueue-redis/run-beside-cpu-hog.sh [rounds] [extra Maven arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
hogs=()
trap 'kill "${hogs[@]}" 2>/dev/null || true' EXIT
for _ in $(seq 1 "$(nproc)"); do
	( while :; do :; done ) &
	hogs+=($!)
done
./mvnw -q -DskipTests "$@" -pl workqueue-redis -am install
for round in $(seq 1 "$rounds"); do
	echo "round $round of $rounds, beside $(nproc) busy loops"
	./mvnw "$@" -pl workqueue-redis test
done
