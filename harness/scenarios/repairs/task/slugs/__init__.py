"""Web addresses of the product pages."""
