"""Source layer: templates (C-like directives, naga_oil, WESL, placeholders) to WGSL with an origin map.

Below syntax: it knows text and files, nothing of WGSL's meaning. Plain WGSL passes through untouched.
"""

from .files import FileCache
from .origin import OriginMap, Piece
from .preprocess import Expansion, Problem, expand, is_template

__all__ = ["Expansion", "FileCache", "OriginMap", "Piece", "Problem", "expand", "is_template"]
