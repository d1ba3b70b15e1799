"""The judge: one trace through one adapter beside the model, per-step verdicts, the rules to blame,
the records of results, and minimising a failing trace (judge/README.md)."""
