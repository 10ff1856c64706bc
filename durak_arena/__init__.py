"""Bots as subprocesses over stdin/stdout, tournaments between them, and ratings."""
