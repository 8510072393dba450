"""Errors the services raise; the HTTP layer turns them into responses."""


class Problem(Exception):
    """A request that cannot be served, with the HTTP status and a reason for a person."""

    def __init__(self, status: int, detail: str, retry_after: int | None = None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        # Seconds a client should wait before trying again (a 503 that will pass).
        self.retry_after = retry_after


class StaleVersion(Problem):
    def __init__(self, current: int):
        super().__init__(409, f"The game has moved on: it is at version {current}.")
        self.current = current


class Suspended(Problem):
    """What a suspended player may not do: anything but watch."""

    def __init__(self) -> None:
        super().__init__(
            403, "You are suspended: you can watch tables, but not play, host, chat or rename."
        )
