"""The Ticket to Ride rules engine: pure, synchronous and deterministic."""
