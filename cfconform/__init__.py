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


def _in_a_checkout() -> None:
    """A source checkout on ``sys.path`` (not installed) serves its folders as the packages an install maps
    them to (``cfconform.judge`` from ``judge/``): Spark's executors and ``python -m cfconform`` in the
    repository find the same code either way."""
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    checkout = all(os.path.isfile(os.path.join(root, *f)) for f in (("pyproject.toml",), ("judge", "__init__.py")))
    if checkout and root not in __path__:
        __path__.append(root)


_in_a_checkout()
