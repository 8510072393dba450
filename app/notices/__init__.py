"""Notices off the site: Web Push and mail, sent from an outbox.

A change that causes a notice (a move, a game's end, a rematch, chat at a turn-based table, a
reminder) writes it as a row of ``notices`` in its own transaction (``outbox``); a worker in
every instance sends the rows that are due (``worker``), each once, and retries them with
backoff when a push service or the mail server fails.
"""
