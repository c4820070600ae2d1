#!/usr/bin/env bash
# Prints the test classpath (target/test-classes, target/classes and every test-scope jar), cached in
# target/test-cp.txt. Offline builds here have no maven-dependency-plugin, so it is read from the surefire
# report of one small unit test (the report records surefire.test.class.path).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -s target/test-cp.txt ] || [ pom.xml -nt target/test-cp.txt ]; then
  mvn -B -o -q -Dtest=BenchBeirCommandTest -Dsurefire.failIfNoSpecifiedTests=false test >/dev/null
  grep -o 'name="surefire.test.class.path" value="[^"]*"' \
    target/surefire-reports/TEST-io.poimen.bench.BenchBeirCommandTest.xml \
    | sed 's/.*value="//; s/"$//' > target/test-cp.txt
fi
cat target/test-cp.txt
