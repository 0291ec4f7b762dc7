"""The registry of variants, by stable key."""

from engine.errors import UnknownVariant
from engine.rules import Rules
from engine.variants import double_canfield_40, little_billie, little_forty, little_milligan

__all__ = ["VARIANT_KEYS", "find_variant"]

_ALL = (little_forty.RULES, little_milligan.RULES, little_billie.RULES, double_canfield_40.RULES)
_BY_KEY = {rules.key: rules for rules in _ALL}

VARIANT_KEYS: tuple[str, ...] = tuple(rules.key for rules in _ALL)
"""Every variant key, in a fixed order; keys are never renamed."""


def find_variant(key: str) -> Rules:
    """The rules of the variant ``key``; `UnknownVariant` when there is none."""
    try:
        return _BY_KEY[key]
    except (KeyError, TypeError):
        raise UnknownVariant(f"no variant is called {key!r}") from None
