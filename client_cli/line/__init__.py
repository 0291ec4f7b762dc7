"""Line mode (``--plain``): typed lines in, room news and boards printed out."""

from client_cli.line.keyboard import typed_lines
from client_cli.line.plain import run_plain, show

__all__ = ["run_plain", "show", "typed_lines"]
