"""Writing results to files: a run's directory (``run``: time series, figures, summary.json last), the
tables (``tables``: CSV, Parquet) and the JSON documents (``jsontext``: summary.json and the comparison
reports). Every file goes through ``files.atomic_write``."""

from .jsontext import summary_text
from .run import PCAP_SUBDIR, prepare_out, write_outputs

__all__ = ["PCAP_SUBDIR", "prepare_out", "summary_text", "write_outputs"]
