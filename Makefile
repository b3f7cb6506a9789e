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
