"""Writing files so that nobody sees half of one: shared by every stage that writes.

render writes PDFs and PNGs, validate the translation records `pnp i18n --accept` keeps, write the
stamps; all go through :func:`pnp.files.atomic.atomic_write`, so the rename that publishes a file is
in one place.
"""
