"""The tests, in folders that mirror the package (see conftest.py for the markers)."""
