"""The benchmarks: `companion bench ...`, each a module, figures as medians and ratios in one run."""
