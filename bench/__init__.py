"""Benchmarks: printed figures, side by side with a reference in the same run."""
