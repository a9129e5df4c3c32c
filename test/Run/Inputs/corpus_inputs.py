"""Writes a corpus program's inputs at P ranks (its spec's inputs(P, rng),
numpy's generator seeded with SEED) as DIR/NAME.npy:
/usr/bin/python3 corpus_inputs.py PROGRAM P SEED DIR."""
import importlib.util
import os
import sys

import numpy as np

program, ranks, seed, directory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
corpus = os.path.join(os.path.dirname(__file__), "..", "..", "..", "corpus")
spec = importlib.util.spec_from_file_location("spec", os.path.join(corpus, program + ".py"))
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
os.makedirs(directory, exist_ok=True)
for name, value in module.inputs(ranks, np.random.default_rng(seed)).items():
    np.save(os.path.join(directory, name + ".npy"), np.asarray(value, order="C"))
