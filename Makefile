# KurentoSignaling: the commands of README.md.
SWIFT ?= swift
.PHONY: deps build examples check-manifest test leaks demo cluster-demo tsan asan fuzz idle-cpu bench docs clean

deps:
	bash scripts/deps.sh

build: deps
	$(SWIFT) build

# The embedding example (Examples/Embedding, README "Five-minute walkthrough"): a package of its own that depends on
# this one by path and uses only its public products, so that a missing product or an internal need breaks this
# build. Debug, its own scratch path; `make test` runs its binaries (EmbeddingExampleTests, through KS_EXAMPLES_BIN).
EXAMPLES_SCRATCH = $(CURDIR)/Examples/Embedding/.build
examples: deps
	# The build plan of a path dependency goes stale when the root package gains a source file: plan afresh.
	rm -f $(EXAMPLES_SCRATCH)/debug.yaml
	cd Examples/Embedding && $(SWIFT) build --scratch-path $(EXAMPLES_SCRATCH)

# The manifests against the sources (docs/testing.md#manifest-check): every module a target imports is a dependency
# it declares, and every dependency it declares is imported; the root package and Examples/Embedding. The script's
# own tests first. Resolving first gives the script the dependencies' manifests (products -> modules); the build
# resolves the same anyway.
check-manifest:
	cd scripts && SWIFT="$(SWIFT)" python3 -m unittest -q test_check_manifest
	$(SWIFT) package resolve
	cd Examples/Embedding && $(SWIFT) package resolve
	SWIFT="$(SWIFT)" python3 scripts/check_manifest.py . Examples/Embedding

# The whole default suite (unit + integration over 127.0.0.1). Swift Testing prints the closing tally.
# Serial (about 90 s): some witnesses (python, openssl) still block a cooperative thread while they run, and on
# 2 cores that starved unrelated tests past their deadlines when everything ran at once.
test: deps check-manifest examples
	$(SWIFT) build --build-tests
	KS_EXAMPLES_BIN=$(EXAMPLES_SCRATCH)/debug $(SWIFT) test --skip-build --no-parallel --skip LeakTests

# Leak checks after many reconnect cycles (descriptors, streams, continuations), alone in their own process so
# that no other test's sockets move the descriptor count.
leaks: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel --filter LeakTests

demo: deps
	bash scripts/demo.sh

# One room across three room-server nodes on a Redis of its own; one node is killed and its user fails over.
cluster-demo: deps
	bash scripts/cluster-demo.sh

# ThreadSanitizer over the whole suite, serially (as `make test`), in its own build folder (kept out of .ci/run).
# Deadlines stretch 6x (KS_DEADLINE_SCALE). The child binaries the CLI tests run are TSan builds too: a report
# there makes the child exit 66 and its test fail. The log is .build-tsan/tsan.log; the last line counts reports.
# DuplicateCacheMemoryTests is skipped like LeakTests: its resident-memory figures mean nothing beside TSan's shadow
# memory, and its 2,000 1 MiB requests take about 20 minutes under TSan (their code paths run in other suites).
tsan: deps
	mkdir -p .build-tsan
	{ KS_DEADLINE_SCALE=6 $(SWIFT) test --sanitize=thread --scratch-path .build-tsan --no-parallel \
	    --skip LeakTests --skip DuplicateCacheMemoryTests; \
	  echo $$? > .build-tsan/tsan.rc; } 2>&1 | tee .build-tsan/tsan.log
	@echo "ThreadSanitizer reports: $$(grep -c 'WARNING: ThreadSanitizer' .build-tsan/tsan.log)"
	@exit $$(cat .build-tsan/tsan.rc)

asan: deps
	printf 'leak:libXCTest.so\n' > .build-asan.supp
	KS_DEADLINE_SCALE=4 LSAN_OPTIONS=suppressions=$(CURDIR)/.build-asan.supp $(SWIFT) test --sanitize=address --scratch-path .build-asan

# DocC for every library product (swift-docc-plugin), in its own build folder. One combined archive,
# .build-docs/docs/KurentoSignaling.doccarchive (each module's own archive is beside it under
# .build-docs/plugins/Swift-DocC/outputs/intermediates). Combined documentation is what lets a module link to a symbol
# of a module it depends on, with a leading slash: ``/JSONRPC/RPCError``. Any warning fails the target: docc's through
# --warnings-as-errors (they print as errors), the compiler's and the plugin's through the grep (the plugin exits 0
# when the final merge fails, hence the check for the archive). The log is .build-docs/docs.log.
DOCS_TARGETS ?= SignalingSupport WebSocketTransport JSONRPC JSONRPCWebSocket SDP PeerManager RoomProtocol KurentoClient RoomServer RoomServerPrometheus RoomServerLifecycle RoomServerJWT \
	RoomClusterCore RoomCluster 	RoomClient TreeClient SharedObjects SharedObjectServer SharedObjectSQLite
# SwiftPM's note about swift-distributed-tracing 1.7.3's own layout (CMakeLists.txt files in its Sources/), printed
# whenever the package is planned: not ours, and not fixable from our manifest. Every other warning fails the docs.
DEPENDENCY_LAYOUT_WARNING = warning: 'swift-distributed-tracing': found 1 file(s) which are unhandled
docs: deps
	mkdir -p .build-docs/docs
	{ $(SWIFT) package --scratch-path .build-docs --allow-writing-to-directory .build-docs/docs \
	    generate-documentation $(addprefix --target ,$(DOCS_TARGETS)) --enable-experimental-combined-documentation \
	    --warnings-as-errors --output-path .build-docs/docs/KurentoSignaling.doccarchive; \
	  echo $$? > .build-docs/docs.rc; } 2>&1 | tee .build-docs/docs.log
	@echo "docs: $$(grep 'warning:' .build-docs/docs.log | grep -vc "$(DEPENDENCY_LAYOUT_WARNING)") warnings, $$(grep -cE 'error:|^Error:' .build-docs/docs.log) errors"
	@test "$$(cat .build-docs/docs.rc)" = 0 && ! grep -E 'warning:|error:|^Error:' .build-docs/docs.log | grep -qv "$(DEPENDENCY_LAYOUT_WARNING)"
	@test -f .build-docs/docs/KurentoSignaling.doccarchive/index.html && echo "docs: .build-docs/docs/KurentoSignaling.doccarchive"

clean:
	rm -rf .build .build-*

# libFuzzer over the SDP and candidate parsers, our WebSocket inbound reassembly (FuzzInbound: framing itself is
# inside lws), the JSON-RPC envelope (FuzzEnvelope) and the Room params decoders (FuzzRoomParams); Fuzz/ is its
# own package. Each target runs FUZZ_SECONDS on a
# scratch copy of the committed seeds, so new corpus entries never land in the repository. Measured here: the
# fuzzers sometimes linked WITHOUT coverage instrumentation (no __sancov_cntrs section; libFuzzer: "no interesting
# inputs ... Is the code instrumented for coverage?") after incremental builds, and after clean builds started
# from make whose output went to make's stdout; a clean build without make's variables and with its output in a
# file was instrumented more often than not. Cause not understood. So: clean build, log to a file, check the
# section (up to three attempts), and fail a run that reports no coverage.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS ?= -max_len=1024 -print_final_stats=1 -artifact_prefix=Fuzz/.build-fuzz/
FUZZ_TARGETS ?= SDP Candidate Inbound Envelope RoomParams
fuzz:
	for attempt in 1 2 3; do \
	  rm -rf Fuzz/.build-fuzz/x86_64-unknown-linux-gnu Fuzz/.build-fuzz/release && mkdir -p Fuzz/.build-fuzz && \
	  (cd Fuzz && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS FUZZ=1 $(SWIFT) build -c release --sanitize=fuzzer \
	    --sanitize=address --scratch-path .build-fuzz > .build-fuzz/build.log 2>&1) || { tail -30 Fuzz/.build-fuzz/build.log; exit 1; }; \
	  instrumented=yes; for target in $(FUZZ_TARGETS); do \
	    readelf -S Fuzz/.build-fuzz/release/Fuzz$$target | grep -q __sancov_cntrs || instrumented=no; done; \
	  if [ $$instrumented = yes ]; then break; fi; \
	  echo "fuzz build $$attempt came out without coverage instrumentation; rebuilding" >&2; \
	  if [ $$attempt = 3 ]; then exit 1; fi; \
	done
	for target in $(FUZZ_TARGETS); do \
	  corpus=Fuzz/.build-fuzz/corpus-$$target log=Fuzz/.build-fuzz/fuzz-$$target.log; \
	  mkdir -p $$corpus && cp Fuzz/Corpus/$$(echo $$target | tr A-Z a-z)/* $$corpus/ && \
	  Fuzz/.build-fuzz/release/Fuzz$$target -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) $$corpus > $$log 2>&1 \
	    || { tail -40 $$log; exit 1; }; \
	  echo "Fuzz$$target: $$(grep -E '^stat::(number_of_executed_units|new_units_added)' $$log | tr '\n' ' ')"; \
	  if grep -q 'no interesting inputs' $$log; then echo "Fuzz$$target: no coverage feedback" >&2; exit 1; fi; \
	done

# An idle server with 20 idle connections must use about 0 % CPU (no busy polling). Takes IDLE_SECONDS (5).
idle-cpu: deps
	$(SWIFT) build --product jsonrpc-echo-server
	python3 scripts/idle_cpu.py "$$($(SWIFT) build --show-bin-path)/jsonrpc-echo-server"

# Benchmarks (kept out of .ci/run): builds the C baselines and the Benchmarks package (release, with the
# SwiftNIO baseline), then runs every pair as separate processes on 127.0.0.1 and prints one table
# (README "Performance"); the figures go to Benchmarks/results/latest.json. BENCH_CLIENTS=1000 for the
# room targets. Instructions per round trip need valgrind (installed here when missing; without it that row says
# it was skipped); BENCH_CALLGRIND_CALLS=0 skips them.
BENCH_CLIENTS ?= 200
BENCH_CC ?= $(shell command -v cc || command -v clang)
bench: deps
	command -v valgrind >/dev/null || { SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q --no-install-recommends valgrind; } || true
	mkdir -p Benchmarks/.build-c
	for program in echo_server echo_client; do \
	  $(BENCH_CC) -O2 -Wall -Wextra -o Benchmarks/.build-c/$$program Benchmarks/C/$$program.c \
	    $$(pkg-config --cflags --libs libwebsockets) || exit 1; \
	done
	# The build plan of a path dependency goes stale when the root package gains a source file: plan afresh.
	rm -f Benchmarks/.build/release.yaml
	cd Benchmarks && $(SWIFT) build -c release
	# The root package's room-server and kms-double, for the rooms through KMS (harness/kms.py).
	cd Benchmarks && $(SWIFT) build -c release --product room-server && $(SWIFT) build -c release --product kms-double
	python3 Benchmarks/run.py --clients $(BENCH_CLIENTS)
