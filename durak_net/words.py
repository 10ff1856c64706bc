"""The 256 words of the short authentication string (one per byte value).

Short, common, distinct nouns that are easy to read out and hard to confuse; their
order is part of the protocol (docs/lan-protocol.md), so never reorder or edit them.
"""

from __future__ import annotations

from typing import Final

WORDS: Final[tuple[str, ...]] = (
    "acorn", "actor", "agent", "album", "alpha", "amber", "anchor", "angel", "ankle", "apple",
    "apron", "arrow", "atlas", "attic", "autumn", "bacon", "badge", "bagel", "baker", "bamboo",
    "banana", "banjo", "barrel", "basket", "beach", "beacon", "beard", "beaver", "bell",
    "berry", "bishop", "blanket", "blossom", "boat", "bonnet", "bottle", "bowl", "branch",
    "bread", "brick", "bridge", "broom", "bubble", "bucket", "button", "cabin", "cactus",
    "camel", "camera", "candle", "canoe", "canyon", "captain", "carpet", "carrot", "castle",
    "cedar", "cello", "chalk", "cheese", "cherry", "chess", "circus", "clock", "cloud",
    "clover", "coconut", "comet", "compass", "cookie", "copper", "coral", "cotton", "cousin",
    "cradle", "crayon", "cricket", "crown", "crystal", "cushion", "daisy", "dancer", "desert",
    "diamond", "dinner", "doctor", "dolphin", "donkey", "dragon", "drum", "eagle", "easel",
    "echo", "elbow", "engine", "falcon", "feather", "fender", "ferry", "fiddle", "finch",
    "flag", "flame", "flute", "forest", "fossil", "fox", "garden", "garlic", "gecko", "giant",
    "ginger", "glacier", "globe", "goose", "grape", "guitar", "hammer", "harbor", "harp",
    "hazel", "helmet", "heron", "hippo", "honey", "horizon", "hunter", "igloo", "island",
    "ivory", "jacket", "jaguar", "jasmine", "jelly", "jester", "jigsaw", "jungle", "kayak",
    "kettle", "kitten", "koala", "ladder", "lagoon", "lantern", "lemon", "leopard", "lily",
    "lion", "lobster", "locket", "lotus", "magnet", "mango", "maple", "marble", "meadow",
    "melon", "mirror", "mitten", "monkey", "moose", "mountain", "muffin", "museum", "needle",
    "nest", "noodle", "nutmeg", "oasis", "ocean", "octopus", "olive", "onion", "orange",
    "orchid", "otter", "owl", "oyster", "paddle", "panda", "parrot", "peach", "peanut", "pearl",
    "pebble", "pencil", "pepper", "piano", "pigeon", "pillow", "pilot", "pirate", "planet",
    "plum", "pocket", "pony", "potato", "prism", "pumpkin", "puppet", "quartz", "quill",
    "rabbit", "raccoon", "radio", "rainbow", "raven", "ribbon", "river", "robin", "rocket",
    "saddle", "salmon", "satin", "scarf", "shadow", "shell", "sheriff", "shovel", "silver",
    "sketch", "sled", "snail", "sparrow", "spider", "spoon", "star", "statue", "sugar",
    "sunset", "swan", "tablet", "teapot", "temple", "thistle", "thunder", "tiger", "tomato",
    "torch", "trumpet", "tulip", "turtle", "valley", "velvet", "violin", "volcano", "wagon",
    "walnut", "walrus", "whale", "whistle", "willow", "window", "wizard", "yacht", "zebra",
)

assert len(WORDS) == 256 and len(set(WORDS)) == 256
