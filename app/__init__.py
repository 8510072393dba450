"""The Campground web server: players, lobbies, persistence, transport."""
