"""Tests of durak_widgets.  A package, so its module names never clash with same-named
test files elsewhere, and so that its helpers for reading a table (``seat_oracle``) are
importable as ``widgets.seat_oracle`` by the LAN table tests in tests/net too (pytest
puts tests/, the folder above both packages, on the path)."""
