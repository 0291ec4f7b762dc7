"""What the race and lobby keys do: picks, drops, draws, sending cards home,
readiness and the host's settings. Each request goes through the app's job queue."""

from __future__ import annotations

from client_cli.room.visible import visible_moves
from client_cli.tui.keys import drop, home_move, pick_pile, pick_top, pile_of_key, stock_move
from client_cli.tui.screens import MovesScreen
from client_cli.tui.state import RaceControls
from client_cli.tui.widgets import short_texts
from engine import VARIANT_KEYS
from protocol import RoomSnapshot, SetSettings, Settings
from protocol.limits import MAX_PLAYERS

TIME_LIMITS = (60, 180, 300, 600, 900, 1800, 3600)


def board_key(app: RaceControls, key: str) -> bool:
    """Carry out a race key; False when the key means nothing on this board."""
    tracker = app.session.tracker
    board = tracker.board
    if board is None or tracker.seat is None:
        return False
    if key == "escape":
        app.state.held = None
    elif key in ("d", " "):
        move = stock_move(board)
        if move is None:
            app.note("Nothing to draw, turn over, deal or redeal now.", error=True)
        else:
            app.send_move(move)
    elif key in ("h", "f"):
        _home(app)
    elif key == "a":
        app.do(lambda: send_all_home(app))
    elif key in ("w", "r"):
        _pick_top(app, key)
    else:
        return _pile_key(app, key)
    app.redraw()
    return True


def _home(app: RaceControls) -> None:
    board = app.session.tracker.board
    assert board is not None
    move = home_move(board, app.state.held)
    if move is None:
        what = "That card" if app.state.held else "No card"
        app.note(f"{what} cannot go home now.", error=True)
    else:
        app.send_move(move)


def _pick_top(app: RaceControls, source: str) -> None:
    board = app.session.tracker.board
    assert board is not None
    picked = pick_top(board, source)
    if isinstance(picked, str):
        app.note(picked, error=True)
    else:
        app.state.held = picked


def _pile_key(app: RaceControls, key: str) -> bool:
    board = app.session.tracker.board
    assert board is not None
    index = pile_of_key(key, board)
    if index is None:
        return False
    held = app.state.held
    if held is None or (held.source == "t" and held.index == index):
        app.state.held = pick_pile(held, index, board)
    else:
        app.send_move(drop(held, "t", index))
    app.redraw()
    return True


def show_moves(app: RaceControls) -> None:
    """List every move the board allows, over the board; or say why there are none."""
    tracker = app.session.tracker
    if tracker.board is None or not tracker.move_texts():
        app.note(tracker.moves_text())
    else:
        app.push_screen(MovesScreen(short_texts(visible_moves(tracker.board))))


async def send_all_home(app: RaceControls) -> None:
    """Send home every card that can go, one ordinary move at a time, until none can
    or the server refuses one."""
    tracker, sent = app.session.tracker, 0
    while tracker.board is not None and (move := home_move(tracker.board)) is not None:
        version = tracker.version
        await app.session.move(move)
        if tracker.version == version:
            return
        sent += 1
    if sent:
        app.note(f"{sent} card{'s' if sent > 1 else ''} sent home.")
    else:
        app.note("No card can go home now.")


def lobby_key(app: RaceControls, key: str) -> bool:
    """Readiness for everyone; game and settings for the host."""
    tracker = app.session.tracker
    room, you = tracker.room, tracker.seat
    if room is None or you is None:
        return False
    if app.state.picking_bot or key in ("b", "B"):
        return bot_key(app, key, room, you)
    if key in (" ", "r"):
        ready = any(player.seat == you and player.ready for player in room.players)
        word = "unready" if ready else "ready"
        app.do(lambda: app.session.execute(word))
        return True
    change = _setting_change(key, room.variant, room.settings, len(room.players))
    if change is None:
        return False
    if room.host != you:
        app.note("Only the host changes the game and settings.", error=True)
    elif key == "R" and room.settings.practice:
        app.note("A practice room is never rated.", error=True)
    else:
        set_settings(app, *change)
    return True


BOT_LEVELS = "1 beginner  2 casual  3 good  4 strong  5 expert"


def bot_key(app: RaceControls, key: str, room: RoomSnapshot, you: int) -> bool:
    """``b`` then a level's number seats a house bot; ``B`` frees the last one."""
    if room.host != you:
        app.note("Only the host adds and removes bots.", error=True)
        return True
    if app.state.picking_bot:
        app.state.picking_bot = False
        if key in "12345" and len(key) == 1:
            app.do(lambda: app.session.execute(f"bot add {key}"))
        else:
            app.note("No bot added.")
        return True
    if key == "b":
        app.state.picking_bot = True
        app.note(f"Bot level? {BOT_LEVELS}  (any other key: none)")
        return True
    house = [player.seat for player in room.players if player.house]
    if not house:
        app.note("No bot of the server's sits here.", error=True)
    else:
        app.do(lambda: app.session.execute(f"bot remove {house[-1] + 1}"))
    return True


def _setting_change(
    key: str, variant: str, settings: Settings, seated: int
) -> tuple[str, Settings] | None:
    if key == "g":
        following = VARIANT_KEYS[(VARIANT_KEYS.index(variant) + 1) % len(VARIANT_KEYS)]
        return following, settings
    update: dict[str, object]
    if key == "n":
        number = (settings.deal_number or 0) + 1
        update = {"deal_number": number, "winnable_only": False, "rated": False}
    elif key == "R":
        update = {"rated": not settings.rated, "deal_number": None}
    elif key in ("s", "w"):
        update = {"deal_number": None, "winnable_only": key == "w"}
    elif key == "t":
        later = [limit for limit in TIME_LIMITS if limit > settings.time_limit_s]
        update = {"time_limit_s": later[0] if later else TIME_LIMITS[0]}
    elif key in ("+", "-"):
        seats = settings.max_players + (1 if key == "+" else -1)
        update = {"max_players": max(1, seated, min(MAX_PLAYERS, seats))}
    else:
        return None
    return variant, settings.model_copy(update=update)


def set_settings(app: RaceControls, variant: str, settings: Settings) -> None:
    session = app.session
    app.do(
        lambda: session.call(
            SetSettings(id=session.pending.next_id(), variant=variant, settings=settings)
        )
    )


def after_rematch(app: RaceControls) -> None:
    """Back in the lobby after the host's rematch: move a public deal on unless the
    host asked for the same one. A secret deal is new every race anyway."""
    tracker, same = app.session.tracker, app.same_deal
    app.same_deal = None
    room = tracker.room
    if same is None or room is None or room.host != tracker.seat:
        return
    number = room.settings.deal_number
    if number is None:
        if same:
            app.note("A secret deal is never dealt twice: this race gets a new one.")
        return
    if not same:
        set_settings(
            app, room.variant, room.settings.model_copy(update={"deal_number": number + 1})
        )
