"""`python -m smallfix ...` runs the CLI like the `smallfix` command."""

from smallfix import main

main()
