"""cfconform: a property-based conformance suite and executable reference model for coupling-facility
shared queues (IMS CQS, IBM MQ for z/OS).

Each package below is a folder of the repository, one layer of ARCHITECTURE.md:
``cfconform.reference_model`` (the rules as a pure model), ``cfconform.adapters`` (how an
implementation is reached), ``cfconform.judge`` (checking, blaming, shrinking), ``cfconform.properties``
(generation), ``cfconform.reports`` (renderers), ``cfconform.conformance`` (the gate, mutation runs,
the pytest plugin), ``cfconform.spark_fuzz`` (Spark campaigns, extra ``spark``) and ``cfconform.cli``.
Importing this package imports none of them.
"""

__version__ = "0.1.0"
