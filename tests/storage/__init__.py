"""Storage layer tests (contract over every backend, SQLite specifics, migrations)."""
