# delaycc: everything a fresh machine needs is installed by these targets (Rust and Python 3.11 assumed).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.deps-installed
BUILD_STAMP := $(VENV)/.built
export VIRTUAL_ENV := $(abspath $(VENV))
export PATH := $(abspath $(VENV))/bin:$(PATH)

RUST_SOURCES := $(shell find crates -name '*.rs' -o -name Cargo.toml) Cargo.toml Cargo.lock

.PHONY: all demo test test-rust test-python fuzz lint bench build wheel env lock clean kernel-deps kernel ns2-deps

all: build

$(STAMP): requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $(STAMP)

env: $(STAMP)

# The extension module, built in release mode and installed into the virtual environment.
$(BUILD_STAMP): $(STAMP) $(RUST_SOURCES) pyproject.toml
	cd $(CURDIR) && maturin develop --release --quiet --locked
	touch $(BUILD_STAMP)

build: $(BUILD_STAMP)

# An installable wheel in dist/: the package, the extension module and the scenarios (as delaycc/scenarios,
# see python/delaycc/packaged.py). `pip install dist/delaycc-*.whl`, with extras [dask] and [notebook].
wheel: $(STAMP)
	rm -f dist/delaycc-*.whl
	maturin build --release --locked --out dist

demo: build
	delaycc demo --out results
	delaycc reproduce demo --out results/reproduce

test: build kernel ns2-deps browser-deps lint test-rust test-python

lint: $(STAMP)
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --locked --quiet -- -D warnings
	ruff check python tests benches examples
	ruff format --check python tests benches examples
	mypy python/delaycc

# The kernel side (kernel/): Debian packages when missing (as root), then the BPF algorithms and the
# emulation tools. Without root or clang the build is skipped and the kernel tests skip with the reason.
kernel-deps:
	./kernel/deps.sh

kernel: kernel-deps
	@if command -v clang >/dev/null && command -v bpftool >/dev/null && [ -r /sys/kernel/btf/vmlinux ]; then \
		$(MAKE) -s -C kernel; else echo "kernel: clang, bpftool or BTF missing; kernel build skipped"; fi

# The ns-2 referee (docs/crosscheck.md): Debian's ns2 package when missing (as root), and the runtime
# libraries of the binary DELAYCC_NS2 names. Without root the referee tests report themselves not run.
ns2-deps:
	./tools/ns2/deps.sh

# The browser the report's test opens report.html in (tests/test_report_browser.py): Debian's chromium
# when missing (as root). Without it that test reports itself not run.
.PHONY: browser-deps
browser-deps:
	./tools/install-missing.sh browser-deps "the report's browser test" chromium

# The property tests run their bounded default number of cases here (fuzz_parse 3000 per property,
# fuzz_run 1000: about 8 s together), whatever PROPTEST_CASES the environment holds; `make fuzz` runs long.
test-rust:
	env -u PROPTEST_CASES cargo test --workspace --profile ci --locked --quiet

test-python: build
	pytest -q -rs tests

# The property tests with many more cases than `make test` runs (FUZZ_CASES per property; a few minutes).
FUZZ_CASES ?= 50000
fuzz:
	PROPTEST_CASES=$(FUZZ_CASES) cargo test --profile ci --locked -p delaycc-sim --test fuzz_parse --test fuzz_run

bench: build
	cargo run --release --locked --quiet -p delaycc-sim --bin delaycc-bench
	python benches/python_overhead.py
	python benches/sweep_scaling.py
	python benches/crosscheck_overhead.py
	python benches/instructions.py $(if $(HTSIM),--htsim $(HTSIM))

lock:
	rm -rf /tmp/delaycc-lock-venv && $(PYTHON) -m venv /tmp/delaycc-lock-venv
	/tmp/delaycc-lock-venv/bin/pip install --quiet -r requirements.in
	{ echo "# Exact versions of every Python package in the development environment (from requirements.in)."; \
	  echo "# Regenerate with: make lock"; /tmp/delaycc-lock-venv/bin/pip freeze; } > requirements.lock

clean:
	rm -rf $(VENV) target results dist
