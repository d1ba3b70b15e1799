"""cfconform's executable reference model of CF shared-queue rules.

Pure and deterministic: imports only the standard library and attrs.  Start
with :class:`Model`, :class:`Config` and the operations in
:mod:`reference_model.operations`; the rule catalogue is
:data:`reference_model.rules.RULES`.
"""

from reference_model.config import Accounting, Config, QueueDef, StructureDef
from reference_model.errors import ConfigurationError
from reference_model.model import Model, step
from reference_model.outcomes import EventMessage, Outcome
from reference_model.readings import AMBIGUITIES, Readings

__all__ = [
    "AMBIGUITIES", "Accounting", "Config", "ConfigurationError", "EventMessage", "Model", "Outcome",
    "QueueDef", "Readings", "StructureDef", "step",
]  # fmt: skip
