"""Numbers both ends agree on. The schemas enforce them, so a value out of range
is a clear validation error rather than a surprise deeper in the server."""

PROTOCOL_VERSION = 1
"""Sent in ``hello`` and ``welcome``; bumped on any incompatible change."""

MAX_CLIENT_FRAME = 16 * 1024
"""Largest binary frame a client may send, in bytes."""
MAX_SERVER_FRAME = 8 * 1024 * 1024
"""Largest frame a server sends (a ``race_over`` with every move log is the big one)."""

MAX_REQUEST_ID = 2**31 - 1
MAX_NAME_CHARS = 24
MIN_ACCOUNT_NAME_CHARS = 3
MAX_ACCOUNT_NAME_CHARS = 20
"""An account's name, counted after Unicode normalisation (NFKC)."""
MIN_ACCOUNT_KEY_CHARS = 22
"""An account key is at least 128 random bits in URL-safe base64."""
MAX_PAGE = 100
"""Most lines one history or leaderboard reply carries."""
MAX_HISTORY = 1000
"""Races kept in an account's history; older ones are dropped."""
MAX_CLIENT_NAME_CHARS = 64
MAX_MOVE_CHARS = 24
MAX_MOVE_ID_CHARS = 32
MAX_TOKEN_CHARS = 64
MAX_MESSAGE_CHARS = 500
MAX_VARIANT_CHARS = 32
MAX_SEED_BYTES = 64

MAX_PLAYERS = 8
MAX_SPECTATORS = 64
MAX_MOVES = 5000
"""Moves one player may make in one race; the move log never grows beyond it."""
MAX_CARDS = 104
MAX_PILES = 26
MAX_FOUNDATIONS = 8
MAX_DEAL_NUMBER = 2**31

ROOM_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No I, O, 0 or 1: codes are read aloud and typed by hand."""
ROOM_CODE_LENGTH = 6

RATE_PER_S = 20
"""Requests per second a connection may send on average (server default)."""
RATE_BURST = 40
"""Requests a connection may send at once before the average applies."""
IDLE_WARNING_S = 10
"""How long before an idle player's timeout the ``idle_warning`` event comes."""
MIN_IDLE_LIMIT_S = 3 * IDLE_WARNING_S
"""The shortest idle limit a room may set."""

CHALLENGE_DAYS = 7
"""How long a challenge stays open unless its creator chooses otherwise."""
MAX_CHALLENGE_DAYS = 30
"""The longest a challenge may stay open."""
MAX_CHALLENGE_RUNS = 100
"""Runs a challenge reply lists at most (the best ones)."""
MAX_GHOSTS = 16
"""Ghosts a challenge race may have."""
