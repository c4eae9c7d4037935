"""`python -m pnp`: the same command as the `pnp` script, for a Python whose scripts folder is not on PATH."""

from pnp.cli import main

main()
