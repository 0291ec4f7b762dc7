import gc
from collections.abc import Iterator

import pytest

from server import memory


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def _collected(box: object) -> bool:
    """Whether the collector still looks at ``box`` (frozen objects are in no generation)."""
    return any(found is box for found in gc.get_objects())


@pytest.mark.usefixtures("restored_gc")
def test_settle_freezes_what_is_alive_and_makes_young_collections_rare() -> None:
    box: list[list[int]] = [[1]]
    assert _collected(box)
    memory.freeze_startup()
    assert not _collected(box)
    assert gc.get_threshold()[0] == memory.YOUNG_THRESHOLD
    later: list[list[int]] = [[2]]
    assert _collected(later)
