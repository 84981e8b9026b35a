"""Models: glTF 2.0 files read as node trees with surfaces, looks, import hints and extras
(:func:`read_model`); what becomes of one in a world is :mod:`playspace.app.models`'s."""

from playspace.formats.models.hints import Hint, split_hint
from playspace.formats.models.model import BodyExtras, Model, ModelError, ModelNode, ModelPart
from playspace.formats.models.read import MODEL_SUFFIXES, forget_models, read_model, smooth_normals

__all__ = [
    "MODEL_SUFFIXES",
    "BodyExtras",
    "Hint",
    "Model",
    "ModelError",
    "ModelNode",
    "ModelPart",
    "forget_models",
    "read_model",
    "smooth_normals",
    "split_hint",
]
