"""One module per command of the command line; cli.py only parses."""
