"""A real JupyterHub on loopback with several students: slow, so `make test` never collects it;
`make test-hub` installs JupyterHub and configurable-http-proxy and sets WORKBOOK_HUB=1."""
import os

if os.environ.get("WORKBOOK_HUB") != "1":
    collect_ignore_glob = ["test_*.py"]
