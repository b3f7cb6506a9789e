"""The pieces of `make bench` (Benchmarks/run.py): processes, echo pairs, instruction counts, targets."""
