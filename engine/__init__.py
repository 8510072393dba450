"""Pure, deterministic rules engines for the Campground games."""
