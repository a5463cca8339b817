#!/usr/bin/env bash
# The Redis queue and Rqueue (rqueue-spring-boot-starter 3.2.0-RELEASE, on Spring Boot 3 in a
# process of its own) on one embedded Redis, in one run. Results under
# workqueue-benchmarks/target/results/redis-vs-rqueue.txt.
# Usage: workqueue-benchmarks/run-redis-vs-rqueue.sh [items for Rqueue at its defaults, default 2000]
#        [items for Rqueue tuned, default 20000]
set -euo pipefail
cd "$(dirname "$0")/.."
rqueue_items=${1:-2000}
rqueue_tuned_items=${2:-20000}
./mvnw -q -DskipTests -pl workqueue-benchmarks -am install
./mvnw -q -DskipTests -f workqueue-benchmarks-rqueue/pom.xml package
jar=workqueue-benchmarks/target/benchmarks.jar
out=workqueue-benchmarks/target/results
mkdir -p "$out"
port=6390
java -cp "$jar" io.github.workqueue.benchmarks.BenchmarkRedisServer "$port" > "$out/redis-server.log" 2>&1 &
redis_pid=$!
trap 'kill $redis_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do grep -q "redis ready" "$out/redis-server.log" && break; sleep 0.2; done
{
	WORKQUEUE_BENCH_REDIS_URL="redis://127.0.0.1:$port" java -cp "$jar" io.github.workqueue.benchmarks.RedisMeasurement 2>/dev/null
	java -Ditems="$rqueue_items" -jar workqueue-benchmarks-rqueue/target/workqueue-benchmarks-rqueue-0.1.0-SNAPSHOT.jar \
		--spring.data.redis.url="redis://127.0.0.1:$port" 2>/dev/null | grep '^rqueue'
	# Rqueue tuned for throughput: 32 listener threads, batches of 32, polling every 1 ms,
	# its background jobs and listener statistics off.
	java -Ditems="$rqueue_tuned_items" -jar workqueue-benchmarks-rqueue/target/workqueue-benchmarks-rqueue-0.1.0-SNAPSHOT.jar \
		--spring.data.redis.url="redis://127.0.0.1:$port" --rqueue.bench.concurrency=32 --rqueue.bench.batch=32 \
		--rqueue.bench.polling-interval=1 --rqueue.job.enabled=false --rqueue.web.collect.listener.stats=false \
		2>/dev/null | grep '^rqueue'
} | tee "$out/redis-vs-rqueue.txt"
