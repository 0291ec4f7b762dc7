"""The registry of variants, by stable key, and their rule options."""

from engine.errors import UnknownVariant
from engine.rules import Rules
from engine.variants import double_canfield_40, little_billie, little_forty, little_milligan

__all__ = ["OPTION_KEYS", "VARIANT_KEYS", "VARIANT_OPTIONS", "find_variant"]

_ALL = (little_forty.RULES, little_milligan.RULES, little_billie.RULES, double_canfield_40.RULES)
_BY_KEY = {(rules.key, ""): rules for rules in _ALL}
_BY_KEY.update({(rules.key, rules.option): rules for rules in little_billie.OPTIONS})

VARIANT_KEYS: tuple[str, ...] = tuple(rules.key for rules in _ALL)
"""Every variant key, in a fixed order; keys are never renamed."""
VARIANT_OPTIONS: dict[str, tuple[str, ...]] = {
    key: tuple(option for each, option in _BY_KEY if each == key and option) for key in VARIANT_KEYS
}
"""Each variant's rule options besides its standard rules (``""``); option
names are stable, never renamed, and numbered from 1 in this order."""
OPTION_KEYS: tuple[str, ...] = ("", *dict.fromkeys(sum(VARIANT_OPTIONS.values(), ())))
"""``""`` and every option name of any variant."""


def find_variant(key: str, option: str = "") -> Rules:
    """The rules of the variant ``key`` under rule ``option`` (``""``: as ruled);
    `UnknownVariant` when there is no such variant or option."""
    try:
        return _BY_KEY[key, option]
    except (KeyError, TypeError):
        pass
    if option and key in VARIANT_KEYS:
        raise UnknownVariant(f"{key} has no rule option {option!r}")
    raise UnknownVariant(f"no variant is called {key!r}")
