"""Errors the services raise; the HTTP layer turns them into responses."""


class Problem(Exception):
    """A request that cannot be served, with the HTTP status and a reason for a person."""

    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status = status
        self.detail = detail


class StaleVersion(Problem):
    def __init__(self, current: int):
        super().__init__(409, f"The game has moved on: it is at version {current}.")
        self.current = current
