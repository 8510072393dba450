"""Request and response bodies of sign-ins, devices, profiles and leaderboards."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.schemas import RatingShown, Timestamp
from app.services import accounts


class Credentials(BaseModel):
    """A body that carries a secret: nothing else in it, and small."""

    model_config = ConfigDict(extra="forbid")


LONGEST = accounts.PASSWORD_CHARS[1]


class AccountCreate(Credentials):
    handle: str = Field(
        max_length=64,
        description="3 to 24 letters (a-z, A-Z), digits, _ or -; unique whatever the case; "
        "shown on the profile",
    )
    password: str = Field(max_length=LONGEST, description="8 to 128 characters")

    @field_validator("handle")
    @classmethod
    def _handle(cls, v: str) -> str:
        return accounts.check_handle(v)

    @field_validator("password")
    @classmethod
    def _password(cls, v: str) -> str:
        return accounts.check_password(v)


class SignIn(Credentials):
    handle: str = Field(max_length=64, description="the handle, in any case")
    password: str = Field(max_length=LONGEST)


class PasswordChange(Credentials):
    password: str = Field(max_length=LONGEST, description="the current one")
    new_password: str = Field(max_length=LONGEST, description="8 to 128 characters")

    @field_validator("new_password")
    @classmethod
    def _password(cls, v: str) -> str:
        return accounts.check_password(v)


class Account(BaseModel):
    id: str
    name: str
    handle: str


class DeviceOut(BaseModel):
    id: str
    how: Literal["claimed", "sign-in", "device code"] = Field(
        description="how the device became the player"
    )
    device: str = Field(
        description='what its browser said it was: "Chrome Mobile 126 on Android 14" (a script '
        "that names no browser: the start of its User-Agent)"
    )
    browser: str | None = Field(description='its browser and version: "Firefox 125"')
    system: str | None = Field(description='its operating system and version: "Android 14"')
    created_at: Timestamp = Field(description="when it signed in")
    last_used_at: Timestamp = Field(
        description="when its token last made a request or opened a socket (to within 5 minutes)"
    )
    current: bool = Field(description="this device: the one the request came from")


class DevicesSignedOut(BaseModel):
    signed_out: int = Field(description="how many devices were signed out")


class DeviceCodeOut(BaseModel):
    code: str = Field(description="one-time code, typed at /device on the other device")
    url: str = Field(description="a link holding the code (after #, so no log sees it)")
    qr_svg: str = Field(description="a QR code of `url`, as a data: URI of an SVG image")
    expires_at: Timestamp


class DeviceCodeRedeem(Credentials):
    code: str = Field(max_length=32, description="case, spaces and dashes do not matter")


class ProfileRating(BaseModel):
    game: str
    title: str
    rating: RatingShown


class ProfileSeat(BaseModel):
    seat: int
    handle: str | None = Field(description="the player's handle; null for a bot")
    bot: str | None
    place: int = Field(description="0 for first; equal places are ties")


class ProfileGame(BaseModel):
    game_id: str
    game: str
    title: str
    finished_at: Timestamp | None
    place: int = Field(description="this player's place: 0 for first")
    points_before: int
    points_after: int
    seats: list[ProfileSeat]
    replay_url: str = Field(description="the game's page, where it can be replayed move by move")


class Profile(BaseModel):
    handle: str
    name: str = Field(description="the name shown at tables")
    ratings: list[ProfileRating] = Field(description="one per game played rated, most played first")
    recent: list[ProfileGame] = Field(description="the latest rated games, newest first")


class LeaderboardEntry(BaseModel):
    rank: int = Field(description="1 for the top")
    handle: str | None = Field(description="null for a bot")
    bot: str | None = Field(description="the bot level, for a bot")
    name: str
    rating: RatingShown
    ranked_by: int = Field(
        description="the conservative rating the board ranks by, in points: the rating less "
        "three times its uncertainty (OpenSkill's ordinal), so a few lucky games do not top it"
    )


class Leaderboard(BaseModel):
    game: str
    title: str
    entries: list[LeaderboardEntry]
    next_offset: int | None = Field(description="`offset` of the next page; null on the last")


class AdminPlayer(BaseModel):
    id: str
    name: str
    handle: str | None
    created_at: Timestamp
    suspended_at: Timestamp | None
    devices: int = Field(description="signed-in devices (a guest has its one token instead)")


class AdminSuspended(AdminPlayer):
    seats_stood_in: int = Field(description="seats of active games the bot now plays")


class AdminRecomputed(BaseModel):
    game: str
    games: int = Field(description="rated games the ratings were computed from")
    raters: int = Field(description="players and bot levels rated")
