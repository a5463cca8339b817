#!/usr/bin/env bash
# Runs the whole benchmark suite (JMH workloads 1-6, then delivery, memory and Redis) and writes
# the results under workqueue-benchmarks/target/results. About 15 minutes on 2 cores.
# Usage: workqueue-benchmarks/run-benchmarks.sh [extra JMH options]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -DskipTests -pl workqueue-benchmarks -am install
jar=workqueue-benchmarks/target/benchmarks.jar
out=workqueue-benchmarks/target/results
mkdir -p "$out"
java -version 2>&1 | head -1 | tee "$out/java-version.txt"
java -jar "$jar" "^(?!.*DelayedAdd).*" -f 1 -wi 3 -i 5 -w 1s -r 1s -rf json -rff "$out/jmh.json" "$@" | tee "$out/jmh.txt"
# The delayed adds take about ten seconds of invocations to reach their steady state: ten warm-ups.
java -jar "$jar" DelayedAddBenchmark -f 1 -wi 10 -i 10 -w 1s -r 1s -rf json -rff "$out/jmh-delayed.json" "$@" | tee "$out/jmh-delayed.txt"
java -cp "$jar" io.github.workqueue.benchmarks.DelayedArrivalMeasurement | tee "$out/delivery.txt"
java -Djol.magicFieldOffset=true -cp "$jar" io.github.workqueue.benchmarks.MemoryMeasurement 2>/dev/null | tee "$out/memory.txt"
java -cp "$jar" io.github.workqueue.benchmarks.RedisMeasurement 2>/dev/null | tee "$out/redis.txt"
