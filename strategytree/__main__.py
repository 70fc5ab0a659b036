"""``python -m strategytree`` runs the command line."""

from .cli import main

main()
