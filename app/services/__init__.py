"""Lobby and game logic shared by the HTTP routes, the WebSockets and the bots."""
