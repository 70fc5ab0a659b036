"""``python -m strategytree`` runs the command line, as the console script does."""

from .launch import main

main()
