# KurentoSignaling: the commands of README.md.
SWIFT ?= swift
.PHONY: deps build test demo tsan asan bench fuzz clean

deps:
	bash scripts/deps.sh

build: deps
	$(SWIFT) build

# The whole default suite (unit + integration over 127.0.0.1). Swift Testing prints the closing tally.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

demo: deps
	bash scripts/demo.sh

# ThreadSanitizer over the transport and JSON-RPC tests, in its own build folder (kept out of .ci/run).
tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter 'WebSocketTransportTests|JSONRPCTests'

asan: deps
	printf 'leak:libXCTest.so\n' > .build-asan.supp
	LSAN_OPTIONS=suppressions=$(CURDIR)/.build-asan.supp $(SWIFT) test --sanitize=address --scratch-path .build-asan

clean:
	rm -rf .build .build-*

# libFuzzer over the SDP and candidate parsers (Fuzz/ is its own package). Each target runs FUZZ_SECONDS on a
# scratch copy of the committed seeds, so new corpus entries never land in the repository.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS ?= -max_len=1024 -print_final_stats=1 -artifact_prefix=Fuzz/.build-fuzz/
fuzz:
	cd Fuzz && FUZZ=1 $(SWIFT) build -c release --sanitize=fuzzer --sanitize=address --scratch-path .build-fuzz
	for target in sdp candidate; do mkdir -p Fuzz/.build-fuzz/corpus-$$target && cp Fuzz/Corpus/$$target/* Fuzz/.build-fuzz/corpus-$$target/; done
	Fuzz/.build-fuzz/release/FuzzSDP -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) Fuzz/.build-fuzz/corpus-sdp
	Fuzz/.build-fuzz/release/FuzzCandidate -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) Fuzz/.build-fuzz/corpus-candidate
