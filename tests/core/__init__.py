"""Tests of durak_core.  A package, so its module names (``test_properties`` ...) never
clash with same-named test files of the other packages' test folders."""
