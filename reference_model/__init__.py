"""cfconform's executable reference model of CF shared-queue rules.

Pure and deterministic: imports only the standard library and attrs.  Start
with :class:`Model`, :class:`Config` and the operations in
:mod:`cfconform.reference_model.operations`; the rule catalogue is
:data:`cfconform.reference_model.rules.RULES`.
"""

from .config import Accounting, Config, QueueDef, StructureDef
from .errors import ConfigurationError
from .model import Model, step
from .outcomes import EventMessage, Outcome
from .readings import AMBIGUITIES, Readings

__all__ = [
    "AMBIGUITIES", "Accounting", "Config", "ConfigurationError", "EventMessage", "Model", "Outcome",
    "QueueDef", "Readings", "StructureDef", "step",
]  # fmt: skip
