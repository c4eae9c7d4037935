"""Built-in layouts and starter files, shipped inside the wheel as `pnp_templates`."""
