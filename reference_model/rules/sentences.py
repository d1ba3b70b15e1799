"""The sentence map: how every sentence of the five IBM documents is treated (pure data).

docs/SENTENCES.md is generated from this map and the documents (which stay outside the
package).  Each document (by seed number, as in :data:`~cfconform.reference_model.rules.catalogue.SEED_TITLES`)
maps the key of each of its sentences (:func:`cfconform.reference_model.rules.splitter.sentence_key`)
to an :class:`Entry`:

- ``normative``: the rules that enforce it, with ``coverage`` ``covered`` or ``partial``
  (``why`` says what is missing, starting ``observable:`` or ``not observable:``);
- ``ambiguous``: the readings (ambiguity IDs of :mod:`cfconform.reference_model.readings`) the
  sentence leaves open, and the rules that follow them;
- ``informative``: ``why`` no rule (a heading, navigation, background, advice);
- ``out-of-scope``: ``why`` (an operator procedure, z/OS or hardware outside CF shared queues);
- ``missing``: a normative sentence with no rule yet; ``why`` starts ``observable:`` (what
  a rule would check) or ``not observable:`` (why the protocol cannot show it).

Edit it by hand: tests/meta/test_sentences.py names every sentence the map lacks (with
its key) and every key that matches no sentence.
"""

from __future__ import annotations

from typing import NamedTuple

KINDS = ("normative", "ambiguous", "informative", "out-of-scope", "missing")
COVERAGES = ("covered", "partial")


class Entry(NamedTuple):
    """How one sentence is treated (see the module text)."""

    kind: str
    rules: tuple[str, ...] = ()
    readings: tuple[str, ...] = ()
    coverage: str = ""
    why: str = ""


def covered(*rules: str) -> Entry:
    """A normative sentence the rules enforce in full."""
    return Entry("normative", rules, coverage="covered")


def partial(rules: tuple[str, ...], why: str) -> Entry:
    """A normative sentence the rules enforce in part; ``why`` says what is missing."""
    return Entry("normative", rules, coverage="partial", why=why)


def ambiguous(readings: tuple[str, ...], rules: tuple[str, ...]) -> Entry:
    """A sentence that admits the named readings; the rules accept each of them."""
    return Entry("ambiguous", rules, readings)


def informative(why: str) -> Entry:
    """A sentence that states no behaviour: ``why``."""
    return Entry("informative", why=why)


def out_of_scope(why: str) -> Entry:
    """A sentence about something outside CF shared queues: ``why``."""
    return Entry("out-of-scope", why=why)


def missing(why: str) -> Entry:
    """A normative sentence no rule enforces yet: ``why`` (``observable: ...`` or ``not observable: ...``)."""
    return Entry("missing", why=why)


TITLE = "the topic's title"
HEADING = "a section heading"
PLATFORM = "a platform tag"
NAV = "navigation: points to another IBM topic"
INTRO = "introduces the list or statements that follow"
CAPTION = "a table or figure caption"
TABLE_HEADER = "a table's column headings"
ADVICE = "planning advice: states no behaviour an implementation shows"
TUNING = "advice on choosing the offload rule pairs: states no behaviour beyond OFFLOAD-002"
RATIONALE = "explains why the rule pairs are arranged so: states no behaviour"
EXAMPLE_SETUP = "sets up IBM's example; the sentences on its outcome carry the rules"
CFRM_POLICY = (
    "operator procedure: defining and activating the z/OS CFRM policy "
    "(the protocol's config stands for an active policy)"
)
CF_HARDWARE = "coupling facility hardware and placement, outside the shared-queue protocol"
CF_ALLOCATION = (
    "where z/OS allocates a structure (within one coupling facility, beside other structures): "
    "the protocol models no coupling facility"
)
OPERATOR_COMMAND = "an operator command (DISPLAY GROUP) with no operation in the protocol"
OPERATOR_PROCEDURE = (
    "operator procedure for estimating CSQ_ADMIN's size (DISPLAY CFSTATUS, ENTSMAX); "
    "the rule it applies is TOPOLOGY-007"
)
ADMIN_FULL = (
    "not observable: no operation of the protocol fills CSQ_ADMIN (IBM gives no figure for what a command or a "
    "unit of work takes there) and no outcome reports its usage; and symptoms that 'might include' these would "
    "leave any behaviour admissible, so no verdict could follow"
)


#: Document (seed number) -> sentence key -> entry, in document order.
SENTENCES: dict[str, dict[str, Entry]] = {
    "000": {
        "cqs-structure-overflow-function-166e1fcf": informative(TITLE),
        "cqs-provides-a-structure-overflow-function-cc25501d": partial(
            ("CQS-003", "CQS-005", "CQS-011", "CQS-012"),
            (
                "not observable: the warning itself; IBM names no message for it here, so only the ALTER "
                "and OVERFLOW_ON signals stand for it"
            ),
        ),
        "when-the-usage-of-a-structure-9e98e9da": ambiguous(("cqs_alter", "cqs_usage_metric"), ("CQS-003", "CQS-020")),
        "if-the-alter-fails-cqs-either-3d190177": covered("CQS-005", "CQS-011", "CQS-012"),
        "cqs-stops-all-activity-against-the-06fc0b3b": covered("CQS-008"),
        "definition-the-overflow-threshold-is-the-5a7e227b": ambiguous(("cqs_usage_metric",), ("CQS-001", "CQS-020")),
        "the-default-overflow-threshold-is-70-9a313224": covered("CQS-001", "CQS-002"),
        "important-structure-overflow-is-not-supported-481b7a45": covered("CQS-016"),
        "if-cqs-does-not-succeed-in-973a12ed": covered("CQS-005"),
        "in-overflow-mode-cqs-selects-queues-271b52c4": covered("CQS-006"),
        "cqs-stops-selecting-queues-when-enough-7edec8bc": ambiguous(("cqs_target",), ("CQS-007",)),
        "activity-against-the-structure-is-temporarily-869208d7": covered("CQS-008"),
        "cqs-drives-the-queue-overflow-user-supplied-880b2b3c": covered("CQS-009", "CQS-010"),
        "queues-that-get-approved-are-placed-c6b3a2af": covered("CQS-009"),
        "if-an-overflow-structure-is-defined-7b427997": covered("CQS-011", "CQS-022"),
        "if-an-overflow-structure-is-not-5a7d2419": covered("CQS-012"),
        "overflow-structures-can-be-defined-in-62984cf3": covered("CQS-011", "CQS-012"),
        "if-an-overflow-structure-is-allocated-34f3e0dd": covered("CQS-013"),
        "the-queues-are-scanned-every-15-665a26e6": ambiguous(("cqs_scan_anchor",), ("CQS-013",)),
        "after-the-empty-queue-is-detected-714b9782": covered("CQS-013"),
        "because-the-scan-is-periodic-empty-18b27e0c": covered("CQS-013"),
        "when-all-queues-have-been-removed-12166927": ambiguous(("cqs_empty_overflow",), ("CQS-014",)),
        "if-no-overflow-structure-is-allocated-b9e5de71": ambiguous(("cqs_target",), ("CQS-015",)),
        "remember-large-messages-messages-that-exceed-b2efa946": covered("CQS-017", "CQS-021"),
        "the-first-part-of-a-message-c89ebcaf": covered("CQS-017"),
        "the-second-and-subsequent-parts-are-fd90b592": covered("CQS-017"),
        "when-a-transaction-or-lterm-queue-90702f6a": covered("CQS-019"),
        "any-parts-of-a-message-that-f7b67f93": covered("CQS-019"),
        "the-staging-queue-is-not-eligible-23581e0c": covered("CQS-018"),
        "you-can-use-the-lgmsgsz-parameter-e3e6e5e7": covered("CQS-021"),
    },
    "001": {
        "z-os-c605eeb4": informative(PLATFORM),
        "planning-your-coupling-facility-and-offload-bf8351d9": informative(TITLE),
        "use-this-topic-when-planning-the-ff9110c4": informative("says when to use the topic"),
        "defining-coupling-facility-resources-316c3858": informative(HEADING),
        "if-you-intend-to-use-shared-00920427": out_of_scope(CFRM_POLICY),
        "to-do-this-you-must-first-e0521003": out_of_scope(CFRM_POLICY),
        "your-installation-probably-has-an-existing-64ad42a0": informative(
            "background: the installation's existing CFRM policy"
        ),
        "the-administrative-data-utility-is-used-13706c73": out_of_scope(
            "describes the z/OS administrative data utility, not CF shared queues"
        ),
        "you-must-add-statements-to-the-88edc383": out_of_scope(CFRM_POLICY),
        "the-cfrm-policy-also-determines-whether-1826dccb": out_of_scope(
            "z/OS CFRM duplexing and reallocation: no operation models a duplexed structure or a "
            "rebuild, and the text gives no behaviour to check"
        ),
        "shared-queue-recovery-contains-recommendations-f-f680c574": informative(NAV),
        "deciding-your-offload-storage-environment-116ba25c": informative(HEADING),
        "the-message-data-for-shared-queues-50006452": covered("OFFLOAD-006"),
        "messages-which-are-too-large-to-22411982": ambiguous(
            ("forced_offload_boundary",), ("OFFLOAD-004", "OFFLOAD-002")
        ),
        "for-more-information-see-specifying-offload-b6377819": informative(NAV),
        "planning-your-structures-3f41d475": informative(HEADING),
        "a-queue-sharing-group-qsg-requires-e69713fe": covered("TOPOLOGY-002"),
        "the-first-structure-known-as-the-a45c86a2": informative(
            "what the administrative structure is for; what it shows is in the next sentences"
        ),
        "no-user-data-is-held-in-5241b537": covered("TOPOLOGY-001"),
        "it-has-a-fixed-name-of-bca97608": covered("TOPOLOGY-001", "TOPOLOGY-010"),
        "subsequent-structures-are-known-as-application-6ab4f392": covered("TOPOLOGY-001", "TOPOLOGY-013"),
        "each-structure-can-hold-up-to-8838058e": covered("TOPOLOGY-005"),
        "an-application-structure-named-qsg-namecsqsysapp-4695d441": covered("TOPOLOGY-011"),
        "defining-this-structure-is-optional-but-831be3a0": partial(
            ("TOPOLOGY-002", "TOPOLOGY-011"),
            (
                "not observable: the features CSQSYSAPPL enables (shared channels, group units of recovery)"
                " have no operation in the protocol"
            ),
        ),
        "by-default-the-system-qsg-channel-syncq-and-syst-c0fd72cc": partial(
            ("TOPOLOGY-011",),
            (
                "not observable: 'by default' is the installation's supplied definitions of the system "
                "queues, which a configuration states as queues of its own; the protocol has no default "
                "objects an implementation creates by itself (TOPOLOGY-011 covers the structure)"
            ),
        ),
        "using-multiple-structures-f56a3fc0": informative(HEADING),
        "a-queue-sharing-group-can-connect-655dbe96": covered("TOPOLOGY-003"),
        "one-of-these-structures-must-be-1f3ebc65": covered("TOPOLOGY-002", "TOPOLOGY-003"),
        "if-it-is-defined-another-of-f5c53f81": covered("TOPOLOGY-004"),
        "you-can-use-up-to-63-c473fd97": covered("TOPOLOGY-003", "TOPOLOGY-004"),
        "you-might-choose-to-use-multiple-b8ffa9ca": informative(INTRO),
        "you-have-some-queues-that-are-f0b29a0e": informative(ADVICE),
        "you-have-a-requirement-for-a-df632905": covered("TOPOLOGY-005"),
        "rmf-reports-on-the-usage-characteristic-984f063b": informative(ADVICE),
        "you-want-some-queue-data-to-ffdf20c5": informative(ADVICE),
        "recovery-of-persistent-shared-messages-is-79625699": covered("RECOVERY-001", "RECOVERY-003"),
        "to-simplify-backup-and-recovery-you-2c852e2e": informative(ADVICE),
        "when-choosing-which-coupling-facilities-to-1edd9877": informative(INTRO),
        "your-data-isolation-requirements-4025ef49": informative(ADVICE),
        "the-volatility-of-the-coupling-facility-21af4e1c": out_of_scope(CF_HARDWARE),
        "failure-independence-between-the-accessing-syste-24daf62b": out_of_scope(CF_HARDWARE),
        "the-level-of-coupling-facility-control-42f91a4b": partial(
            ("TOPOLOGY-014",),
            "not observable: the protocol's config has no CFCC level, so no implementation is judged on "
            "refusing one below 9; TOPOLOGY-014 holds it in cfconform size --cfcc-level",
        ),
        "planning-the-size-of-your-structures-31076976": informative(HEADING),
        "the-administrative-structure-934b76f5": informative(HEADING),
        "the-administrative-structure-qsg-namecsq-admin-m-e83f856f": covered("TOPOLOGY-007"),
        "when-a-queue-manager-starts-the-d73b808f": partial(
            ("TOPOLOGY-007", "TOPOLOGY-008"),
            (
                "not observable: what a queue manager does when the check at its start fails is not stated,"
                " so start_qmgr is not judged on it (a too-small CSQ_ADMIN is a configuration the gate "
                "drops)"
            ),
        ),
        "queue-managers-are-considered-as-being-d1d896e2": covered("TOPOLOGY-007", "TOPOLOGY-008"),
        "you-can-check-which-queue-managers-a07638eb": out_of_scope(OPERATOR_COMMAND),
        "note-when-calculating-the-size-of-246719ad": missing(
            "not observable: IBM gives no figure for the CSQ_ADMIN space a unit of work takes, and the "
            "protocol reports no CSQ_ADMIN usage"
        ),
        "table-1-shows-the-minimum-required-34ee3400": covered("TOPOLOGY-008"),
        "these-sizes-were-established-for-a-ecfebea8": partial(
            ("TOPOLOGY-008", "TOPOLOGY-014"),
            (
                "not observable: sizes for CFCC levels above 14 are not given ('probably need to be "
                "larger') and the config has no CFCC level; the model knows the level-14 and V6 tables only"
            ),
        ),
        "table-1-minimum-administrative-structure-sizes-f0280680": informative(CAPTION),
        "number-of-queue-managers-defined-in-20a07b14": informative(TABLE_HEADER),
        "1-6144-kb-f44a9aab": covered("TOPOLOGY-008"),
        "2-6912-kb-2c10e209": covered("TOPOLOGY-008"),
        "3-7976-kb-fe8a35b8": covered("TOPOLOGY-008"),
        "4-8704-kb-a88b23a2": covered("TOPOLOGY-008"),
        "5-9728-kb-bba3daf8": covered("TOPOLOGY-008"),
        "6-10496-kb-bfc657b1": covered("TOPOLOGY-008"),
        "7-11520-kb-4868c065": covered("TOPOLOGY-008"),
        "8-12288-kb-208a25fa": covered("TOPOLOGY-008"),
        "9-13056-kb-7928d294": covered("TOPOLOGY-008"),
        "10-14080-kb-04a1f5d6": covered("TOPOLOGY-008"),
        "11-14848-kb-8d55643d": covered("TOPOLOGY-008"),
        "12-15616-kb-f5da4e41": covered("TOPOLOGY-008"),
        "13-16640-kb-4cb9f2d4": covered("TOPOLOGY-008"),
        "14-17408-kb-780dc628": covered("TOPOLOGY-008"),
        "15-18176-kb-a23f20fe": covered("TOPOLOGY-008"),
        "16-19200-kb-99debd13": covered("TOPOLOGY-008"),
        "17-19968-kb-adcb181c": covered("TOPOLOGY-008"),
        "18-20736-kb-31dcf4ff": covered("TOPOLOGY-008"),
        "19-21760-kb-5f52846d": covered("TOPOLOGY-008"),
        "20-22528-kb-326e3811": covered("TOPOLOGY-008"),
        "21-23296-kb-279c294d": covered("TOPOLOGY-008"),
        "22-24320-kb-324fdd00": covered("TOPOLOGY-008"),
        "23-25088-kb-aae4e2d8": covered("TOPOLOGY-008"),
        "24-25856-kb-39e6c5ef": covered("TOPOLOGY-008"),
        "25-27136-kb-9f8e3cdf": covered("TOPOLOGY-008"),
        "26-27904-kb-a3f4e6d8": covered("TOPOLOGY-008"),
        "27-28672-kb-522473d6": covered("TOPOLOGY-008"),
        "28-29696-kb-16944fc2": covered("TOPOLOGY-008"),
        "29-30464-kb-3c58abe5": covered("TOPOLOGY-008"),
        "30-31232-kb-e9e69849": covered("TOPOLOGY-008"),
        "31-32256-kb-fc505ec6": covered("TOPOLOGY-008"),
        "when-you-add-a-queue-manager-4aeed56a": covered("TOPOLOGY-007"),
        "if-so-use-the-following-procedure-f94f3e92": out_of_scope(OPERATOR_PROCEDURE),
        "issue-mqsc-command-display-cfstatus-csq-admin-on-48f9b4ca": out_of_scope(OPERATOR_PROCEDURE),
        "extract-the-entsmax-information-for-the-24119116": out_of_scope(OPERATOR_PROCEDURE),
        "if-this-number-is-less-than-da62b24f": covered("TOPOLOGY-007"),
        "application-structures-a5be634f": informative(HEADING),
        "the-size-of-the-application-structures-ddf8fccd": covered("SIZING-001", "SIZING-005"),
        "the-graph-in-figure-1-shows-959883c7": informative(
            "points to Figure 1, which the text does not carry; Table 2 gives its figures (SIZING-001)"
        ),
        "to-calculate-the-allocation-size-you-f5a4a9c9": informative(INTRO),
        "the-average-size-of-messages-on-5accbe5c": informative(
            "an input of the sizing method (SIZING-001), not a behaviour"
        ),
        "the-total-number-of-messages-likely-32cf9b4f": informative(
            "an input of the sizing method (SIZING-001), not a behaviour"
        ),
        "find-the-number-of-messages-along-375cb722": informative(
            "how to read Figure 1, which the text does not carry"
        ),
        "select-the-curve-that-corresponds-to-bf4c0432": informative(
            "how to read Figure 1, which the text does not carry"
        ),
        "for-example-for-200-000-messages-82657d4f": covered("SIZING-002"),
        "table-2-provides-the-same-information-51c10575": informative(NAV),
        "figure-1-calculating-the-size-of-4863cd2c": informative(CAPTION),
        "use-the-following-table-to-help-7d0c3d2b": informative("alternative text of Figure 1"),
        "use-this-table-to-help-calculate-f54ac653": informative(INTRO),
        "table-2-calculating-the-size-of-db403153": covered("SIZING-001"),
        "number-of-messages-1-kb-2-d51c392c": informative(TABLE_HEADER),
        "100-6-mb-6-mb-7-da9ec89a": covered("SIZING-001"),
        "1000-8-mb-9-mb-12-a4e79a64": covered("SIZING-001"),
        "10000-25-mb-38-mb-64-08925c0c": covered("SIZING-001"),
        "100000-199-mb-327-mb-584-81e222dd": covered("SIZING-001"),
        "your-cfrm-policy-should-include-the-1ef09382": informative(INTRO),
        "initsize-is-the-size-in-kb-dbdb98dc": covered("CAPACITY-008", "CAPACITY-004"),
        "size-is-the-maximum-size-that-5594fb66": covered("CAPACITY-005"),
        "fullthreshold-sets-the-percentage-value-of-a44e4d0f": covered("CAPACITY-002", "CAPACITY-009"),
        "a-best-practice-is-to-ensure-59ab07e0": covered("CAPACITY-007"),
        "for-example-with-the-figures-determined-da7b11dc": informative(INTRO),
        "structure-name-structure-name-56111a2f": covered("SIZING-003"),
        "initsize-value-from-graph-in-kb-that-80d44da4": covered("SIZING-003"),
        "size-something-larger-d851c2ed": covered("SIZING-003"),
        "fullthreshold-85-2c4762e1": covered("SIZING-003", "TOPOLOGY-011"),
        "structure-name-qsg1application1-773fcf3c": covered("SIZING-003"),
        "initsize-262144-256-mb-f5502fdd": covered("SIZING-002", "SIZING-003"),
        "size-524288-512-mb-2bbf38c3": covered("SIZING-002", "SIZING-003"),
        "if-the-structure-use-reaches-the-76e3bee1": covered("CAPACITY-001", "CAPACITY-002"),
        "you-might-use-ibm-mq-to-244f9c04": out_of_scope(
            "operator remedies: PUT(DISABLED), starting or quiescing applications are not operations of the protocol"
        ),
        "alternatively-you-can-use-z-os-facilities-76b6639a": covered("CAPACITY-004"),
        "the-following-z-os-command-064c7c60": informative(INTRO),
        "setxcf-start-alter-strname-structure-name-size-n-73197d82": covered("CAPACITY-004"),
        "alters-the-size-of-the-structure-d3db401d": ambiguous(
            ("alter_at_size", "alter_not_larger"), ("CAPACITY-005", "CAPACITY-006")
        ),
        "you-can-monitor-the-use-of-e4ce9078": informative(
            "names the operator command for monitoring; inspect and each outcome's usage stand for it"
        ),
        "if-no-action-is-taken-and-ebf8bcfc": covered("CAPACITY-001"),
        "if-the-administration-structure-becomes-full-29e27ac3": missing(ADMIN_FULL),
        "no-responses-to-commands-8a662d5e": missing(ADMIN_FULL),
        "queue-manager-failure-as-a-result-ba131130": missing(ADMIN_FULL),
        "the-csqsysappl-structure-fc338eee": informative(HEADING),
        "the-qsg-namecsqsysappl-structure-is-an-applicati-3451804b": covered("TOPOLOGY-011"),
        "table-3-demonstrates-an-example-of-b84d06f5": covered("TOPOLOGY-012"),
        "table-3-table-showing-csqsysappl-usage-14c53731": informative(CAPTION),
        "qsg-namecsqsysappl-usage-sizing-49d55d58": informative(TABLE_HEADER),
        "system-qsg-channel-syncq-2-messages-of-500-bytes-3932455e": covered("TOPOLOGY-012"),
        "system-qsg-ur-resolution-queue-1000-messages-of-80fd9dfd": covered("TOPOLOGY-012"),
        "the-suggested-initial-structure-definition-value-04d1beae": informative(INTRO),
        "structure-name-qsg-namecsqsysappl-40add26d": covered("TOPOLOGY-011"),
        "initsize-20480-20-mb-61a9783e": covered("TOPOLOGY-011"),
        "size-30720-30-mb-537cf306": covered("TOPOLOGY-011"),
        "these-values-can-be-adjusted-depending-0dbd4fd6": informative(ADVICE),
        "mapping-shared-queues-to-structures-48c99d4b": informative(HEADING),
        "to-define-an-application-structure-to-7b3d0613": covered("TOPOLOGY-009", "TOPOLOGY-013"),
        "when-you-define-a-structure-to-8c4d7318": covered("TOPOLOGY-010"),
        "for-example-to-define-an-application-538ef4b3": covered("TOPOLOGY-010"),
        "define-cfstruct-application1-34d24d37": covered("TOPOLOGY-009", "TOPOLOGY-010"),
        "the-cfstruct-attribute-of-the-queue-dc650889": covered("TOPOLOGY-013"),
        "specify-the-name-of-the-cf-842832d6": covered("TOPOLOGY-013"),
        "for-example-the-following-command-defines-ea1a1f74": covered("TOPOLOGY-013"),
        "define-qlocal-myqueue-qsgdisp-shared-cfstruct-ap-61b46082": covered("TOPOLOGY-013"),
    },
    "002": {
        "z-os-c605eeb4": informative(PLATFORM),
        "specifying-offload-options-for-shared-messages-a4dd16e0": informative(TITLE),
        "you-can-choose-where-the-message-b4c27c6a": covered("OFFLOAD-006"),
        "you-can-also-select-which-messages-ef6a0355": ambiguous(
            ("offload_usage_metric",), ("OFFLOAD-012", "OFFLOAD-002")
        ),
        "the-message-data-for-shared-queues-c830967a": covered("OFFLOAD-006"),
        "for-messages-larger-than-the-coupling-617c1281": missing(
            "not observable: a performance comparison of SMDS and Db2; the protocol has no timing"
        ),
        "every-shared-queue-message-is-still-92cf2847": covered("OFFLOAD-005", "CAPACITY-012"),
        "using-this-mechanism-means-the-amount-d6ff36fc": covered("OFFLOAD-005"),
        "selecting-where-the-shared-queue-messages-e645ddc0": informative(HEADING),
        "the-selection-of-smds-or-db2-8f899b4f": covered("OFFLOAD-006"),
        "offload-smds-is-the-default-value-a4d4fd85": covered("OFFLOAD-006"),
        "this-parameter-also-requires-the-cfstruct-4d4bb710": covered("OFFLOAD-007"),
        "the-offload-parameter-is-only-valid-937ff4d6": covered("OFFLOAD-007"),
        "see-define-cfstruct-for-more-details-a59da432": informative(NAV),
        "offload-db2-is-supported-primarily-for-migration-57af4ee6": informative(
            "why OFFLOAD(DB2) exists; the model accepts it (OFFLOAD-006)"
        ),
        "selecting-which-shared-queue-messages-are-f9eae3de": informative(HEADING),
        "message-data-is-offloaded-to-smds-b7614c9b": ambiguous(
            ("offload_usage_metric",), ("OFFLOAD-012", "OFFLOAD-002")
        ),
        "there-are-three-rules-and-each-d5f6c415": covered("OFFLOAD-002"),
        "these-parameters-are-a-corresponding-coupling-43c4dcf9": covered("OFFLOAD-002", "OFFLOAD-011"),
        "the-current-implementation-of-the-three-21ce0ed4": informative(INTRO),
        "offld1th-and-offld1sz-8a185576": covered("OFFLOAD-002"),
        "offld2th-and-offld2sz-c9ae6cd4": covered("OFFLOAD-002"),
        "offld3th-and-offld3sz-c0828657": covered("OFFLOAD-002"),
        "rule-pair-default-value-description-d2b2a481": informative(TABLE_HEADER),
        "rule-pair-1-offld1th-70-and-offld1sz-32k-2b07cb7a": ambiguous(
            ("offload_compare", "offload_usage_metric"), ("OFFLOAD-001", "OFFLOAD-002", "OFFLOAD-012")
        ),
        "rule-pair-2-offld2th-80-and-offld2sz-4k-3c08f3db": ambiguous(
            ("offload_compare", "offload_usage_metric"), ("OFFLOAD-001", "OFFLOAD-002", "OFFLOAD-012")
        ),
        "rule-pair-3-offld3th-90-and-offld3sz-0k-298ca430": ambiguous(
            ("offload_compare", "offload_usage_metric"), ("OFFLOAD-001", "OFFLOAD-002", "OFFLOAD-012")
        ),
        "if-an-offload-rule-has-the-ee9dd96c": covered("OFFLOAD-003"),
        "in-this-case-messages-will-only-4a9fa886": ambiguous(
            ("forced_offload_boundary",), ("OFFLOAD-003", "OFFLOAD-004")
        ),
        "each-message-which-is-offloaded-still-818ec8e7": covered("OFFLOAD-005"),
        "the-three-offload-rules-which-can-1c05ec59": informative(INTRO),
        "performance-442aded8": informative(HEADING),
        "when-there-is-plenty-of-space-f83ae17a": informative(TUNING),
        "if-a-specific-message-size-threshold-426ffc98": informative(TUNING),
        "capacity-ae65d096": informative(HEADING),
        "when-there-is-very-little-space-d991e3c9": informative(TUNING),
        "the-third-offload-rule-is-conventionally-91c8fe18": covered("OFFLOAD-005"),
        "the-usage-threshold-parameter-should-be-c9ee8dfa": covered("SIZING-004"),
        "for-example-if-the-maximum-anticipated-fb678439": covered("OFFLOAD-009"),
        "this-means-for-example-that-if-0cb46101": covered("OFFLOAD-009"),
        "structure-space-is-divided-into-elements-fe94f665": covered("CAPACITY-001"),
        "the-system-provides-autoalter-capabilities-to-4bbf5234": partial(
            ("CAPACITY-011",),
            "not observable: when AUTOALTER acts is not stated ('when necessary', 'not very sensitive'), "
            "so no rule can require an adjustment; CAPACITY-011 accepts one at any time",
        ),
        "it-may-be-better-therefore-to-871bfd84": covered("OFFLOAD-010"),
        "cushioned-transition-56635c43": informative(HEADING),
        "as-the-amount-of-space-left-c4276075": informative(RATIONALE),
        "it-is-also-undesirable-for-coupling-e0564039": informative(RATIONALE),
        "the-second-offload-rule-is-conventionally-17f3c42e": informative(TUNING),
        "it-can-be-set-to-cause-014e8e84": covered("OFFLOAD-002"),
        "this-means-that-the-remaining-space-7a0b03c9": informative(RATIONALE),
        "if-the-coupling-facility-structure-cannot-3efc6ecc": covered("SIZING-004"),
        "for-example-if-the-coupling-facility-e217d459": covered("OFFLOAD-008"),
        "in-this-case-the-threshold-for-314125b9": covered("OFFLOAD-008"),
        "this-gives-parameters-offld3th-80-and-offld3sz-0-5d7d56f1": covered("OFFLOAD-008"),
        "the-other-offload-parameters-would-also-e0eb5317": informative(
            "tuning advice: names no values (the rule pairs are independent: OFFLOAD-002)"
        ),
        "if-it-is-found-that-offloading-5430b8a2": informative(TUNING),
        "for-example-if-messages-exceeding-32kb-55eb5909": covered("OFFLOAD-014", "OFFLOAD-002"),
        "this-gives-parameters-offld1th-0-and-offld1sz-32-01fe68b1": covered("OFFLOAD-002", "OFFLOAD-011"),
        "again-the-other-offload-parameters-would-5eea2179": informative(
            "tuning advice: names no values (the rule pairs are independent: OFFLOAD-002)"
        ),
        "if-there-are-many-messages-around-42237816": informative(TUNING),
    },
    "003": {
        "where-are-shared-queue-messages-held-4357adbe": informative(TITLE),
        "each-message-on-a-shared-queue-50df9a53": covered("CAPACITY-012", "CAPACITY-010"),
        "if-the-message-data-is-too-1af1a816": covered("OFFLOAD-004", "OFFLOAD-006"),
        "if-the-cf-structure-has-been-09fc6c01": missing(
            "not observable: storage class memory has no record in the protocol's config, so nothing "
            "distinguishes a structure that uses it"
        ),
        "see-ibm-mq-v8-features-and-035a14e0": informative(NAV),
        "shared-queue-message-storage-6fe876d5": informative(HEADING),
        "messages-that-are-put-onto-shared-8120c066": missing(
            "not observable: page sets and buffer pools have no record or outcome in the protocol"
        ),
        "the-messages-in-shared-queues-have-385161b5": covered("CAPACITY-012", "CAPACITY-001", "CAPACITY-010"),
        "many-queue-managers-in-the-same-a6859555": covered("TOPOLOGY-006", "QUEUE-001"),
        "the-message-data-for-small-shared-0c2f8c27": covered("OFFLOAD-002"),
        "for-larger-messages-the-message-data-b7df6f85": covered("OFFLOAD-006"),
        "message-data-exceeding-63-kb-is-fb1af36a": ambiguous(("forced_offload_boundary",), ("OFFLOAD-004",)),
        "smaller-messages-can-also-optionally-be-1311a465": covered("OFFLOAD-002", "CFLEVEL-006"),
        "see-specifying-offload-options-for-shared-a3bb722d": informative(NAV),
        "messages-put-on-a-shared-queue-83710c64": covered("CAPACITY-010"),
        "coupling-facility-operations-are-used-to-f8ce4d50": informative(INTRO),
        "search-for-the-next-retrievable-message-59bd222f": covered("QUEUE-001"),
        "lock-uncommitted-messages-on-shared-queues-a2d4ad05": covered("QUEUE-003"),
        "notify-interested-queue-managers-about-the-b7849a0f": partial(
            ("QUEUE-002",),
            (
                "not observable: the notification itself; gets never wait, so no operation shows a waiting "
                "queue manager told of an arrival"
            ),
        ),
        "mqput-and-mqget-operations-on-persistent-7a00a531": covered("QUEUE-005", "RECOVERY-003"),
        "this-minimizes-the-risk-of-data-bbe99cbe": covered("RECOVERY-003", "RECOVERY-004"),
        "the-coupling-facility-0af66c17": informative(HEADING),
        "the-messages-held-on-shared-queues-09ce4d9d": covered("CAPACITY-010"),
        "the-coupling-facility-lies-outside-any-213a9893": out_of_scope(CF_HARDWARE),
        "the-coupling-facility-is-therefore-resilient-d8bfbeff": partial(
            ("RECOVERY-008",),
            (
                "not observable: resilience to hardware failures and power outages is coupling facility "
                "configuration the protocol has no record of"
            ),
        ),
        "this-means-that-messages-stored-in-0aa4409a": informative("a conclusion drawn from the sentences before"),
        "each-coupling-facility-list-structure-used-c16a8f5d": missing(
            "not observable: a configuration holds one queue-sharing group, so no operation can show a "
            "structure shared with, or kept from, another group"
        ),
        "queue-managers-in-different-queue-sharing-groups-132f7bd8": missing(
            "not observable: a configuration holds one queue-sharing group, so no operation can show a "
            "structure shared with, or kept from, another group"
        ),
        "up-to-32-queue-managers-in-8cfd888a": covered("TOPOLOGY-006"),
        "a-single-coupling-facility-list-structure-18195639": covered("TOPOLOGY-005"),
        "the-total-amount-of-message-data-0cd324e4": covered("CAPACITY-001"),
        "however-with-cflevel-5-you-can-use-2a131ae6": covered("CFLEVEL-006", "OFFLOAD-005"),
        "the-size-of-the-list-structure-6457da1c": informative(INTRO),
        "it-must-lie-within-a-single-7a06a9c9": out_of_scope(CF_ALLOCATION),
        "it-might-share-the-available-coupling-eb700fad": out_of_scope(CF_ALLOCATION),
        "coupling-facility-list-structures-can-have-83faef7a": out_of_scope(
            "storage class memory is a coupling facility feature the protocol has no record of"
        ),
        "in-certain-situations-this-storage-class-a6ca4306": informative("background on storage class memory"),
        "see-use-of-storage-class-memory-aa6b66ff": informative(NAV),
        "planning-the-cf-structure-size-b87e8006": informative(HEADING),
        "if-you-require-guidance-on-the-e6871965": informative("points to a sizing SupportPac"),
        "you-can-also-use-the-web-based-43d2ead4": informative("points to IBM's CFSizer tool"),
        "the-cf-structure-object-2c57c08c": informative(HEADING),
        "the-queue-manager-s-use-of-a-8bac6c3f": covered("TOPOLOGY-009", "TOPOLOGY-013"),
        "these-structure-objects-are-stored-in-2713a37e": missing(
            "not observable: where CFSTRUCT definitions are kept (Db2) has no outcome; the protocol has no Db2"
        ),
        "when-using-z-os-commands-or-definitions-0ca5d472": covered("TOPOLOGY-010"),
        "however-an-ibm-mq-cfstruct-object-dd477593": covered("TOPOLOGY-010", "TOPOLOGY-013"),
        "for-example-cfstruct-mydata-defined-in-queue-sha-a9ccb839": covered("TOPOLOGY-010"),
        "cf-structures-have-a-cflevel-attribute-7dbaa535": covered("CFLEVEL-001"),
        "1-2-can-be-used-f3f2b688": ambiguous(
            ("persistent_low_cflevel_rc", "large_low_cflevel_rc"), ("CFLEVEL-002", "CFLEVEL-003")
        ),
        "3-can-be-used-for-89e568bf": ambiguous(
            ("large_low_cflevel_rc",), ("CFLEVEL-003", "CFLEVEL-004", "CFLEVEL-007")
        ),
        "4-can-be-used-for-3778da27": covered("CFLEVEL-005"),
        "5-can-be-used-for-5b9a2f8f": covered("CFLEVEL-006"),
        "backup-and-recovery-of-the-coupling-453a8128": informative(HEADING),
        "you-can-back-up-coupling-facility-5253cb20": covered("RECOVERY-001"),
        "this-puts-a-copy-of-the-bddce4b3": partial(
            ("RECOVERY-001",),
            (
                "not observable: where the copy goes (the backing-up queue manager's active log, a record "
                "in Db2); only what RECOVER restores is checked"
            ),
        ),
        "if-coupling-facility-fails-you-can-1e54dda9": covered("RECOVERY-003", "RECOVERY-006"),
        "this-uses-the-backup-record-from-1c35c25a": covered("RECOVERY-007"),
        "any-activity-since-the-last-backup-8a952c43": covered("RECOVERY-003"),
        "see-the-backup-cfstruct-and-recover-38fd2e47": informative(NAV),
    },
    "004": {
        "shared-queues-and-queue-depth-events-b0a25d59": informative(TITLE),
        "event-monitoring-is-more-straightforward-for-879a575b": informative(ADVICE),
        "when-a-queue-depth-event-occurs-583f162b": ambiguous(("event_broadcast",), ("QDEPTH-009", "QDEPTH-010")),
        "if-perfmev-is-set-to-disabled-420b88b0": covered("QDEPTH-009", "QDEPTH-010"),
        "for-more-straightforward-monitoring-give-each-70fed338": informative(ADVICE),
        "this-event-message-that-each-queue-e828ac6e": covered("QDEPTH-011"),
        "if-a-queue-manager-performs-no-43ade744": covered("QDEPTH-011"),
        "you-can-use-null-event-messages-c76a9ba1": informative(INTRO),
        "ensure-that-each-active-queue-manager-0ef06f21": covered("QDEPTH-010", "QDEPTH-016"),
        "highlight-cases-of-no-activity-on-c7a1bb02": informative(
            "a use of null event messages; what they carry is QDEPTH-011"
        ),
        "coordinating-queue-manager-14828e61": informative(HEADING),
        "when-a-queue-manager-issues-a-4f2875c7": covered("QDEPTH-004", "QDEPTH-005", "QDEPTH-006"),
        "for-example-depending-on-the-definition-0a702167": covered("QDEPTH-004"),
        "after-updating-the-shared-queue-object-74f7f6a6": covered("QDEPTH-009"),
        "if-enabled-for-performance-events-the-ba20c424": ambiguous(("event_broadcast",), ("QDEPTH-009", "QDEPTH-010")),
        "issues-an-event-message-that-captures-c55647ae": covered("QDEPTH-011", "QDEPTH-017"),
        "the-message-descriptor-mqmd-of-this-49f1ab07": covered("QDEPTH-009"),
        "broadcasts-to-all-other-active-queue-e1c12b16": ambiguous(("event_broadcast",), ("QDEPTH-010",)),
        "the-broadcast-contains-the-correlation-identifie-96f1d359": covered("QDEPTH-010"),
        "having-received-a-request-from-the-c6d209fc": covered("QDEPTH-010", "QDEPTH-016"),
        "the-event-message-that-is-issued-7d9da0d1": covered("QDEPTH-011", "QDEPTH-017"),
        "the-message-descriptor-mqmd-of-this-8a287b5f": covered("QDEPTH-010"),
        "when-performance-events-occur-on-a-ef36f887": ambiguous(("event_broadcast",), ("QDEPTH-016", "QDEPTH-010")),
        "each-event-message-contains-data-that-39be749a": covered("QDEPTH-011"),
        "differences-between-shared-and-nonshared-queues-677c67b5": informative(HEADING),
        "enabling-queue-depth-events-on-shared-9aa66cd5": informative(INTRO),
        "a-key-difference-is-that-events-0726db8c": covered("QDEPTH-007"),
        "this-is-not-the-case-for-0475daf4": covered("QDEPTH-008"),
        "consider-the-following-example-which-illustrates-4d9952e5": informative(INTRO),
        "qm1-is-a-queue-manager-with-86966951": informative(EXAMPLE_SETUP),
        "sq1-is-a-shared-queue-with-539b9ba2": informative(EXAMPLE_SETUP),
        "lq1-is-a-nonshared-queue-with-fd320d97": informative(EXAMPLE_SETUP),
        "both-queues-have-the-following-attributes-89c3673d": informative(EXAMPLE_SETUP),
        "qdphiev-enabled-f38b0195": informative(EXAMPLE_SETUP),
        "qdploev-disabled-400baf8a": informative(EXAMPLE_SETUP),
        "qdpmaxev-disabled-659bfb71": informative(EXAMPLE_SETUP),
        "if-messages-are-placed-on-both-f7cde367": ambiguous(
            ("qdepth_percent",), ("QDEPTH-001", "QDEPTH-004", "QDEPTH-007", "QDEPTH-013")
        ),
        "also-qdploev-and-qdpmaxev-are-switched-8c1f4976": covered("QDEPTH-004", "QDEPTH-007"),
        "sq1-s-attributes-are-automatically-switched-for-e477cfaf": covered("QDEPTH-007", "QDEPTH-012"),
        "in-contrast-the-attributes-for-lq1-ed2a01a1": covered("QDEPTH-008"),
        "this-means-that-if-the-queue-b6b1b317": covered("QDEPTH-007", "QDEPTH-008"),
    },
}
