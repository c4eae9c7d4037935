"""pnp's guides, shipped in the wheel as the data package pnp_docs, so an installed pnp can say where they are."""
