from .memory_report import format_report, gather_stats, local_stats, report_memory

__all__ = ["format_report", "gather_stats", "local_stats", "report_memory"]
