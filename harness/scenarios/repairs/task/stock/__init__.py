"""Stock levels of the shop's products."""
