"""Command runners: each loads, checks and hands off to the stage that does the work.

They print and return an exit status; `pnp.cli` only maps options onto them.
"""
