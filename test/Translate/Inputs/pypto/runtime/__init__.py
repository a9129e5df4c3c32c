"""A stand-in for PyPTO's runtime helpers that generated host
orchestrators import, for tests."""
