"""Cold-room temperatures."""
